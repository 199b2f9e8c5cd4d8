// Community prompts (seed discord: discordPopup1..5, lastPopupDate; users.popupTriggered). Pure rules:
// which of the five Discord prompts is due, and what showing, joining or dismissing one changes.
//
// The schedule (docs/decisions/010): the prompts come in order, each at a moment where the community
// helps, with an age fallback so nobody is stuck behind a moment that never comes.
//   1. welcome       the account is at least 1 day old (the first day is for getting started)
//   2. study group   the first lesson is done, or the account is 3 days old
//   3. first week    the account is 7 days old (weekly product drops are discussed there)
//   4. ask for help  10 lessons are done, or the account is 14 days old
//   5. last call     the account is 30 days old; dismissing this one ends the prompts for good
// At most one prompt in any 24 hours (measured from lastPopupDate). None once the user joined,
// connected a Discord account, or dismissed the fifth; none while no invite link is configured.

export const POPUP_COUNT = 5;
export const POPUP_NUMBERS = [1, 2, 3, 4, 5] as const;
export type PopupNumber = (typeof POPUP_NUMBERS)[number];
export const POPUP_ACTIONS = ["shown", "joined", "dismissed"] as const;
export type PopupAction = (typeof POPUP_ACTIONS)[number];

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** "At most one a day": the next prompt waits this long after the previous one was shown. */
export const MIN_GAP_MS = DAY_MS;

export interface PopupState {
  /** discordPopup1..5: whether each prompt has been shown. */
  shown: readonly [boolean, boolean, boolean, boolean, boolean];
  lastPopupDate: Date | null;
  joined: boolean;
  dismissedLast: boolean;
  /** A Discord account is connected (discordId set): the user is already in. */
  connected: boolean;
}

export interface PopupFacts {
  now: Date;
  accountCreatedAt: Date;
  lessonsCompleted: number;
  /** Without an invite link there is nothing to join, so nothing is shown. */
  inviteConfigured: boolean;
}

export const EMPTY_POPUP_STATE: PopupState = {
  shown: [false, false, false, false, false],
  lastPopupDate: null,
  joined: false,
  dismissedLast: false,
  connected: false,
};

interface Moment {
  popup: PopupNumber;
  key: string;
  title: string;
  message: string;
  isDue: (facts: PopupFacts, ageDays: number) => boolean;
}

/** What each prompt says and when it becomes due. */
export const POPUP_MOMENTS: readonly Moment[] = [
  {
    popup: 1,
    key: "welcome",
    title: "Say hello to other sellers",
    message:
      "Our Discord is where students share what they are testing, ask about suppliers and post their first sales. Come and introduce yourself.",
    isDue: (_facts, ageDays) => ageDays >= 1,
  },
  {
    popup: 2,
    key: "study-group",
    title: "Study the course with others",
    message:
      "Each module has a channel where students compare notes, share their shortlists and ask questions about the lessons.",
    isDue: (facts, ageDays) => facts.lessonsCompleted >= 1 || ageDays >= 3,
  },
  {
    popup: 3,
    key: "first-week",
    title: "This week's products, discussed",
    message:
      "Every week the community picks apart the new product drops: which ones have margin, which are saturated, who is testing what.",
    isDue: (_facts, ageDays) => ageDays >= 7,
  },
  {
    popup: 4,
    key: "ask-for-help",
    title: "Stuck on ads or suppliers?",
    message:
      "Post your numbers and your ad, and get a second opinion from sellers who have been there. It is faster than guessing.",
    isDue: (facts, ageDays) => facts.lessonsCompleted >= 10 || ageDays >= 14,
  },
  {
    popup: 5,
    key: "last-call",
    title: "One last invitation",
    message:
      "The community is free with your account. If it is not for you, dismiss this and we will not ask again.",
    isDue: (_facts, ageDays) => ageDays >= 30,
  },
];

export function isPopupNumber(value: unknown): value is PopupNumber {
  return typeof value === "number" && POPUP_NUMBERS.includes(value as PopupNumber);
}

/** True once nothing will ever be shown again. */
export function popupsFinished(state: PopupState): boolean {
  return state.joined || state.connected || state.dismissedLast || state.shown.every(Boolean);
}

/** The prompt to show now, or null. */
export function duePopup(state: PopupState, facts: PopupFacts): PopupNumber | null {
  if (!facts.inviteConfigured || popupsFinished(state)) return null;
  if (state.lastPopupDate && facts.now.getTime() - state.lastPopupDate.getTime() < MIN_GAP_MS) return null;
  const next = state.shown.findIndex((s) => !s);
  if (next === -1) return null;
  const moment = POPUP_MOMENTS[next];
  const ageDays = (facts.now.getTime() - facts.accountCreatedAt.getTime()) / DAY_MS;
  return moment.isDue(facts, ageDays) ? moment.popup : null;
}

export type PopupActionResult =
  | { ok: true; state: PopupState; firstShown: boolean }
  | { ok: false; status: 409; message: string };

/**
 * What an action changes. "shown" is accepted for the prompt that is due (or again for one already
 * shown, changing nothing), so a client cannot skip ahead or show two in a day. "joined" is accepted at
 * any time and ends the prompts. "dismissed" applies to a prompt that was shown (or is due, which then
 * counts as shown); dismissing the fifth ends the prompts.
 */
export function applyPopupAction(
  state: PopupState,
  facts: PopupFacts,
  popup: PopupNumber,
  action: PopupAction,
): PopupActionResult {
  const index = popup - 1;
  const alreadyShown = state.shown[index];
  if (action === "joined") return { ok: true, state: { ...state, joined: true }, firstShown: false };

  let next = state;
  let firstShown = false;
  if (!alreadyShown) {
    if (duePopup(state, facts) !== popup) {
      return { ok: false, status: 409, message: `Community prompt ${popup} is not due now.` };
    }
    const shown = [...state.shown] as [boolean, boolean, boolean, boolean, boolean];
    shown[index] = true;
    next = { ...state, shown, lastPopupDate: facts.now };
    firstShown = !state.shown.some(Boolean);
  }
  if (action === "dismissed" && popup === POPUP_COUNT) next = { ...next, dismissedLast: true };
  return { ok: true, state: next, firstShown };
}

export function popupMoment(popup: PopupNumber): Moment {
  return POPUP_MOMENTS[popup - 1];
}

/** What a join or prompt says when this server has no community invite link. */
// Said to a seller: what they can expect, never which setting the operator left empty (issue 35).
export const NOT_CONFIGURED_MESSAGE = "The community's invite is not available yet: it will appear here as soon as it is.";
