// The community (seed: the community link, discord): the Discord invite from the environment, the five
// prompts scheduled by app/domain/community.ts, and connecting a Discord account through OAuth when its
// keys are set. Owns DiscordProfile and users.popupTriggered.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { dateOrNull, namedRow, readerFor, textOrNull, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import {
  applyPopupAction,
  duePopup,
  EMPTY_POPUP_STATE,
  popupMoment,
  popupsFinished,
  type PopupAction,
  type PopupNumber,
  type PopupState,
  NOT_CONFIGURED_MESSAGE,
} from "~/domain/community";
import { DiscordError, type DiscordOAuth } from "~/integrations/discord.server";
import { countCompletedLessons } from "~/services/course.server";
import { outboxRows, outboxWritten, writeOutbox } from "~/services/outbox.server";

export interface CommunityDeps {
  db: Db;
  /** DISCORD_INVITE_URL; null when not configured (the UI says so and shows no link). */
  inviteUrl: string | null;
  /** The OAuth adapter when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are both set. */
  discord: DiscordOAuth | null;
}

/** What Discord sent the browser back with, and the state this browser was given at step 1. */
export interface DiscordReturn {
  /** ?error (the user cancelled on Discord), or null. */
  error: string | null;
  state: string;
  code: string;
  /** The state cookie's content as signed at step 1 (app/pages/course/discord-connect.server.ts), or null. */
  saved: { state?: unknown; userId?: unknown } | null;
}

export interface CommunityUser {
  id: string;
  createdAt: Date;
}

export interface PopupView {
  popup: PopupNumber;
  key: string;
  title: string;
  message: string;
  last: boolean;
}

export { NOT_CONFIGURED_MESSAGE };

const profileSelect = {
  discordId: true,
  discordUserName: true,
  discordPopup1: true,
  discordPopup2: true,
  discordPopup3: true,
  discordPopup4: true,
  discordPopup5: true,
  lastPopupDate: true,
  joined: true,
  dismissedLast: true,
} as const;
const PROFILE_FIELDS = Object.keys(profileSelect) as (keyof typeof profileSelect)[];
const PROFILE_SQL = `SELECT ${PROFILE_FIELDS.map((f) => `"${f}"`).join(", ")} FROM "DiscordProfile" WHERE "userId" = ?`;
type Profile = { [K in keyof typeof profileSelect]: K extends "discordId" | "discordUserName" ? string | null : K extends "lastPopupDate" ? Date | null : boolean };

type ProfileRow = {
  discordId: string | null;
  discordUserName: string | null;
  discordPopup1: boolean;
  discordPopup2: boolean;
  discordPopup3: boolean;
  discordPopup4: boolean;
  discordPopup5: boolean;
  lastPopupDate: Date | null;
  joined: boolean;
  dismissedLast: boolean;
};

function toState(row: ProfileRow | null): PopupState {
  if (!row) return EMPTY_POPUP_STATE;
  return {
    shown: [row.discordPopup1, row.discordPopup2, row.discordPopup3, row.discordPopup4, row.discordPopup5],
    lastPopupDate: row.lastPopupDate,
    joined: row.joined,
    dismissedLast: row.dismissedLast,
    connected: Boolean(row.discordId),
  };
}

function fromState(state: PopupState) {
  return {
    discordPopup1: state.shown[0],
    discordPopup2: state.shown[1],
    discordPopup3: state.shown[2],
    discordPopup4: state.shown[3],
    discordPopup5: state.shown[4],
    lastPopupDate: state.lastPopupDate,
    joined: state.joined,
    dismissedLast: state.dismissedLast,
  };
}

function popupView(popup: PopupNumber | null): PopupView | null {
  if (popup === null) return null;
  const moment = popupMoment(popup);
  return { popup, key: moment.key, title: moment.title, message: moment.message, last: popup === 5 };
}

export type ConnectResult =
  | { ok: true; discordUserName: string }
  | { ok: false; reason: "denied" | "state" | "taken" | "failed" | "disabled"; message: string };

export function createCommunity(deps: CommunityDeps) {
  const { db, inviteUrl, discord } = deps;

  /** Read on every dashboard: a prepared statement on the SqlReader (docs/decisions/076), else Prisma. */
  async function loadProfile(userId: string): Promise<Profile | null> {
    const reader = readerFor(db);
    if (!reader) return db.discordProfile.findUnique({ where: { userId }, select: profileSelect });
    const row = await reader.row(PROFILE_SQL, [userId]);
    if (!row) return null;
    const r = namedRow(PROFILE_FIELDS, row);
    return {
      discordId: textOrNull(r.discordId),
      discordUserName: textOrNull(r.discordUserName),
      discordPopup1: Boolean(r.discordPopup1),
      discordPopup2: Boolean(r.discordPopup2),
      discordPopup3: Boolean(r.discordPopup3),
      discordPopup4: Boolean(r.discordPopup4),
      discordPopup5: Boolean(r.discordPopup5),
      lastPopupDate: dateOrNull(r.lastPopupDate),
      joined: Boolean(r.joined),
      dismissedLast: Boolean(r.dismissedLast),
    };
  }

  async function facts(user: CommunityUser, now: Date) {
    return {
      now,
      accountCreatedAt: user.createdAt,
      lessonsCompleted: await countCompletedLessons(db, user.id),
      inviteConfigured: inviteUrl !== null,
    };
  }

  async function saveState(userId: string, state: PopupState) {
    const data = fromState(state);
    await db.discordProfile.upsert({ where: { userId }, create: { userId, ...data }, update: data, select: { userId: true } });
  }

  return {
    inviteUrl,
    oauthEnabled: discord !== null,

    /** Everything the community card and popup need. */
    async overview(user: CommunityUser, now: Date = new Date()) {
      const profile = await loadProfile(user.id);
      const state = toState(profile);
      return {
        inviteUrl,
        notConfiguredMessage: inviteUrl ? null : NOT_CONFIGURED_MESSAGE,
        joined: state.joined,
        discordUserName: profile?.discordId ? profile.discordUserName : null,
        oauthEnabled: discord !== null,
        popup: popupView(duePopup(state, await facts(user, now))),
      };
    },

    /** The prompt to show now, or null (GET /api/community/popup). */
    async duePopup(user: CommunityUser, now: Date = new Date()): Promise<PopupView | null> {
      const state = toState(await loadProfile(user.id));
      return popupView(duePopup(state, await facts(user, now)));
    },

    /**
     * Records that a prompt was shown, joined through or dismissed. The first prompt ever shown sets
     * users.popupTriggered, as the seed does. A prompt that is not due: AppError 409.
     */
    async recordPopup(user: CommunityUser, popup: PopupNumber, action: PopupAction, now: Date = new Date()) {
      const state = toState(await loadProfile(user.id));
      const result = applyPopupAction(state, await facts(user, now), popup, action);
      if (!result.ok) throw new AppError(result.status, result.message);
      await saveState(user.id, result.state);
      if (result.state.joined && !state.joined && !state.connected) {
        await writeOutbox(db, outboxRows.discord(user.id));
        outboxWritten();
      }
      if (result.state.shown.some(Boolean)) {
        await db.user.updateMany({ where: { id: user.id, popupTriggered: false }, data: { popupTriggered: true } });
      }
      return { ok: true as const, finished: popupsFinished(result.state), joined: result.state.joined };
    },

    /** The user clicked through to the Discord invite (from the card or a prompt): no more prompts. */
    async markJoined(userId: string) {
      const before = await db.discordProfile.findUnique({ where: { userId }, select: { joined: true, discordId: true } });
      const upsert = db.discordProfile.upsert({ where: { userId }, create: { userId, joined: true }, update: { joined: true }, select: { userId: true } });
      // discordMember on the Klaviyo profile, the first time only.
      if (before?.joined || before?.discordId) await upsert;
      else {
        await db.$transaction([upsert, writeOutbox(db, outboxRows.discord(userId))]);
        outboxWritten();
      }
      return { inviteUrl };
    },

    /**
     * Step 1 of connecting: where to send the browser, and the state it must bring back (the page
     * keeps it, with the user's id, in a signed cookie: app/pages/course/discord-connect.server.ts).
     */
    startConnect(): { url: string; state: string } | null {
      if (!discord) return null;
      const state = randomBytes(24).toString("base64url");
      return { url: discord.authorizeUrl(state), state };
    },

    /**
     * Step 2: Discord sent the browser back with ?code&state (or ?error). Every ending is an outcome
     * the page turns into ?discord=connected|denied|state|taken|failed|disabled, not an error.
     */
    async finishConnect(userId: string, input: DiscordReturn): Promise<ConnectResult> {
      if (!discord) return { ok: false, reason: "disabled", message: "Connecting Discord is not set up on this server." };
      if (input.error) {
        return { ok: false, reason: "denied", message: "Discord was not connected: the request was cancelled on Discord." };
      }
      const { saved, state, code } = input;
      const expected = typeof saved?.state === "string" ? saved.state : "";
      const sameState =
        expected !== "" && state.length === expected.length && timingSafeEqual(Buffer.from(state), Buffer.from(expected));
      if (!sameState || saved?.userId !== userId || code === "") {
        return { ok: false, reason: "state", message: "That Discord sign-in link expired or was not started here. Try again." };
      }
      try {
        const token = await discord.exchangeCode(code);
        const discordUser = await discord.fetchUser(token.accessToken);
        const other = await db.discordProfile.findFirst({
          where: { discordId: discordUser.id, NOT: { userId } },
          select: { userId: true },
        });
        if (other) {
          return { ok: false, reason: "taken", message: "That Discord account is already connected to another account here." };
        }
        const discordUserName = discordUser.discriminator ? `${discordUser.username}#${discordUser.discriminator}` : discordUser.username;
        await db.$transaction([
          db.discordProfile.upsert({
            where: { userId },
            create: { userId, discordId: discordUser.id, discordUserName },
            update: { discordId: discordUser.id, discordUserName },
            select: { userId: true },
          }),
          writeOutbox(db, outboxRows.discord(userId)),
        ]);
        outboxWritten();
        return { ok: true, discordUserName };
      } catch (error) {
        if (error instanceof DiscordError) return { ok: false, reason: "failed", message: error.message };
        throw error;
      }
    },

    async disconnect(userId: string) {
      await db.discordProfile.updateMany({ where: { userId }, data: { discordId: null, discordUserName: null } });
    },
  };
}
export type Community = ReturnType<typeof createCommunity>;
