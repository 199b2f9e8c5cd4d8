// The Discord prompt schedule (app/domain/community.ts), simulated day by day.
import { describe, expect, it } from "vitest";
import {
  applyPopupAction,
  duePopup,
  EMPTY_POPUP_STATE,
  MIN_GAP_MS,
  type PopupFacts,
  type PopupNumber,
  type PopupState,
} from "~/domain/community";

const DAY = 24 * 3600_000;
const SIGNUP = new Date("2026-03-01T09:00:00Z");
const at = (days: number, hours = 0) => new Date(SIGNUP.getTime() + days * DAY + hours * 3600_000);

function facts(now: Date, lessonsCompleted = 0, inviteConfigured = true): PopupFacts {
  return { now, accountCreatedAt: SIGNUP, lessonsCompleted, inviteConfigured };
}

/** What a browser does: on each visit, show the due prompt (if any) and answer it. */
function visit(state: PopupState, now: Date, answer: "dismissed" | "joined" | "ignore", lessons = 0) {
  const popup = duePopup(state, facts(now, lessons));
  if (popup === null) return { state, popup };
  const shown = applyPopupAction(state, facts(now, lessons), popup, "shown");
  if (!shown.ok) throw new Error(shown.message);
  let next = shown.state;
  if (answer !== "ignore") {
    const answered = applyPopupAction(next, facts(now, lessons), popup, answer);
    if (!answered.ok) throw new Error(answered.message);
    next = answered.state;
  }
  return { state: next, popup };
}

describe("duePopup", () => {
  it("shows nothing on the first day: that day is for getting started", () => {
    for (const hours of [0, 1, 12, 23]) expect(duePopup(EMPTY_POPUP_STATE, facts(at(0, hours), 5))).toBeNull();
    expect(duePopup(EMPTY_POPUP_STATE, facts(at(1)))).toBe(1);
  });

  it("shows nothing when no invite link is configured", () => {
    expect(duePopup(EMPTY_POPUP_STATE, facts(at(60), 78, false))).toBeNull();
  });

  it("shows nothing to a user who joined, connected Discord or dismissed the last prompt", () => {
    expect(duePopup({ ...EMPTY_POPUP_STATE, joined: true }, facts(at(10)))).toBeNull();
    expect(duePopup({ ...EMPTY_POPUP_STATE, connected: true }, facts(at(10)))).toBeNull();
    expect(duePopup({ ...EMPTY_POPUP_STATE, dismissedLast: true }, facts(at(10)))).toBeNull();
  });

  it("waits a full 24 hours after the previous prompt, whatever the moment says", () => {
    const state: PopupState = { ...EMPTY_POPUP_STATE, shown: [true, false, false, false, false], lastPopupDate: at(5) };
    expect(duePopup(state, facts(at(5, 23), 3))).toBeNull();
    expect(duePopup(state, facts(new Date(at(5).getTime() + MIN_GAP_MS - 1), 3))).toBeNull();
    expect(duePopup(state, facts(new Date(at(5).getTime() + MIN_GAP_MS), 3))).toBe(2);
  });

  it("brings prompt 2 forward when the first lesson is done, else waits for day 3", () => {
    const afterFirst: PopupState = { ...EMPTY_POPUP_STATE, shown: [true, false, false, false, false], lastPopupDate: at(1) };
    expect(duePopup(afterFirst, facts(at(2), 0))).toBeNull();
    expect(duePopup(afterFirst, facts(at(2), 1))).toBe(2);
    expect(duePopup(afterFirst, facts(at(3), 0))).toBe(2);
  });

  it("brings prompt 4 forward at 10 lessons, else waits for day 14", () => {
    const state: PopupState = { ...EMPTY_POPUP_STATE, shown: [true, true, true, false, false], lastPopupDate: at(7) };
    expect(duePopup(state, facts(at(9), 9))).toBeNull();
    expect(duePopup(state, facts(at(9), 10))).toBe(4);
    expect(duePopup(state, facts(at(14), 0))).toBe(4);
  });
});

describe("the schedule over simulated days", () => {
  it("shows the five prompts in order, never two within a day, the last on day 30", () => {
    let state = EMPTY_POPUP_STATE;
    const shownOn: { popup: PopupNumber; at: Date }[] = [];
    // Visits every 6 hours for 45 days, dismissing every prompt.
    for (let h = 0; h <= 45 * 24; h += 6) {
      const now = at(0, h);
      const result = visit(state, now, "dismissed");
      state = result.state;
      if (result.popup) shownOn.push({ popup: result.popup, at: now });
    }
    expect(shownOn.map((s) => s.popup)).toEqual([1, 2, 3, 4, 5]);
    for (let i = 1; i < shownOn.length; i++) {
      expect(shownOn[i].at.getTime() - shownOn[i - 1].at.getTime()).toBeGreaterThanOrEqual(DAY);
    }
    expect(shownOn.map((s) => (s.at.getTime() - SIGNUP.getTime()) / DAY)).toEqual([1, 3, 7, 14, 30]);
    expect(state.dismissedLast).toBe(true);
    expect(state.shown).toEqual([true, true, true, true, true]);
  });

  it("an eager student who finishes lessons quickly still gets at most one prompt a day", () => {
    let state = EMPTY_POPUP_STATE;
    const days: number[] = [];
    for (let h = 0; h <= 40 * 24; h += 1) {
      const result = visit(state, at(0, h), "ignore", 78);
      state = result.state;
      if (result.popup) days.push(h / 24);
    }
    expect(days).toEqual([1, 2, 7, 8, 30]);
  });

  it("stops for good once the user joins", () => {
    let state = EMPTY_POPUP_STATE;
    const shown: PopupNumber[] = [];
    for (let d = 0; d <= 60; d++) {
      const result = visit(state, at(d), d === 7 ? "joined" : "dismissed", 1);
      state = result.state;
      if (result.popup) shown.push(result.popup);
    }
    expect(shown).toEqual([1, 2, 3]);
    expect(state.joined).toBe(true);
  });

  it("stops for good after the fifth is dismissed, even years later", () => {
    const done: PopupState = { ...EMPTY_POPUP_STATE, shown: [true, true, true, true, true], lastPopupDate: at(30), dismissedLast: true };
    expect(duePopup(done, facts(at(400), 78))).toBeNull();
  });
});

describe("applyPopupAction", () => {
  it("refuses to show a prompt that is not due (no skipping ahead, no second one today)", () => {
    const early = applyPopupAction(EMPTY_POPUP_STATE, facts(at(2)), 3, "shown");
    expect(early).toEqual({ ok: false, status: 409, message: "Community prompt 3 is not due now." });
    const afterOne = applyPopupAction(EMPTY_POPUP_STATE, facts(at(2, 0), 1), 1, "shown");
    if (!afterOne.ok) throw new Error("expected ok");
    expect(applyPopupAction(afterOne.state, facts(at(2, 3), 1), 2, "shown").ok).toBe(false);
  });

  it("records the first prompt ever shown (popupTriggered) and the date", () => {
    const result = applyPopupAction(EMPTY_POPUP_STATE, facts(at(1)), 1, "shown");
    expect(result).toMatchObject({ ok: true, firstShown: true });
    if (!result.ok) return;
    expect(result.state.shown[0]).toBe(true);
    expect(result.state.lastPopupDate).toEqual(at(1));
    const second = applyPopupAction(result.state, facts(at(4)), 2, "shown");
    expect(second).toMatchObject({ ok: true, firstShown: false });
  });

  it("treats showing the same prompt again as a no-op (a second tab)", () => {
    const once = applyPopupAction(EMPTY_POPUP_STATE, facts(at(1)), 1, "shown");
    if (!once.ok) throw new Error("expected ok");
    const twice = applyPopupAction(once.state, facts(at(1, 2)), 1, "shown");
    expect(twice).toEqual({ ok: true, state: once.state, firstShown: false });
  });

  it("only the fifth prompt's dismissal ends the prompts", () => {
    const s1 = applyPopupAction(EMPTY_POPUP_STATE, facts(at(1)), 1, "dismissed");
    expect(s1.ok && s1.state.dismissedLast).toBe(false);
    const four: PopupState = { ...EMPTY_POPUP_STATE, shown: [true, true, true, true, false], lastPopupDate: at(20) };
    const s5 = applyPopupAction(four, facts(at(30)), 5, "dismissed");
    expect(s5.ok && s5.state.dismissedLast).toBe(true);
    expect(s5.ok && s5.state.shown[4]).toBe(true);
  });

  it("accepts joined at any time", () => {
    const result = applyPopupAction(EMPTY_POPUP_STATE, facts(at(0)), 4, "joined");
    expect(result.ok && result.state.joined).toBe(true);
  });
});
