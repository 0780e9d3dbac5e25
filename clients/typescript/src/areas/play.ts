// Play a seat: the turn (view and legal commands in one read, waiting until the decision is
// yours), commands, and the view and legal commands on their own.
import type { Command, CommandResult, LegalCommands, ReactionBody, Turn, ViewOut } from "../models.js";
import { Area, gamePath, type WriteOptions } from "./base.js";

/** The server caps a wait at its long-poll maximum (30 s by default). */
export const TURN_WAIT = 25;

export interface SendOptions extends WriteOptions {
  /** The version the command answers (`If-Match`): a stale one is refused with
   * `StaleVersion` rather than applied to a game that moved on. `"*"`: any. */
  ifMatch?: number | "*";
  /** Check the command without committing it. */
  dryRun?: boolean;
}

export class Play extends Area {
  /** Your view, status, whose decision it is, its deadline and your legal commands, at one
   * version. Waits up to `timeout` seconds until the decision is yours or the game ends.
   * Waiting does not count against the rate limit. */
  turn(gameId: string, timeout: number = TURN_WAIT, signal?: AbortSignal): Promise<Turn> {
    return this.session.run({ method: "GET", path: gamePath(gameId, "/turn"), params: { timeout }, waits: timeout },
      undefined, signal);
  }

  /** Post one command (as `legal_commands` lists it). An `Idempotency-Key` is made for you,
   * so a retried command happens once. */
  send(gameId: string, command: Command, options: SendOptions = {}): Promise<CommandResult> {
    const { ifMatch } = options;
    const headers: Record<string, string> =
      ifMatch === undefined ? {} : { "If-Match": ifMatch === "*" ? "*" : `"${ifMatch}"` };
    return this.session.run({
      method: "POST", path: gamePath(gameId, "/commands"), body: command, headers,
      params: { dry_run: options.dryRun ? true : undefined }, idempotent: true,
    }, options.idempotencyKey, options.signal);
  }

  /** Your view; with `waitForVersion`, waits (up to `timeout` s) for that version. */
  view(gameId: string, options: { waitForVersion?: number; timeout?: number; signal?: AbortSignal } = {}): Promise<ViewOut> {
    return this.session.run({
      method: "GET", path: gamePath(gameId, "/view"), waits: options.timeout ?? 0,
      params: { wait_for_version: options.waitForVersion, timeout: options.timeout },
    }, undefined, options.signal);
  }

  /** Your view, or null while the game is still at `version` (`If-None-Match`). */
  viewIfChanged(gameId: string, version: number): Promise<ViewOut | null> {
    return this.session.run({
      method: "GET", path: gamePath(gameId, "/view"), headers: { "If-None-Match": `"${version}"` }, ok: [200, 304],
    });
  }

  legalCommands(gameId: string): Promise<LegalCommands> {
    return this.session.run({ method: "GET", path: gamePath(gameId, "/legal-commands") });
  }

  /** A preset reaction to the table; one per seat every few seconds (a 429
   * `too_many_reactions` sooner). */
  react(gameId: string, reaction: ReactionBody["reaction"], options: WriteOptions = {}): Promise<CommandResult> {
    return this.session.run({
      method: "POST", path: gamePath(gameId, "/reactions"), body: { reaction }, idempotent: true,
    }, options.idempotencyKey, options.signal);
  }
}
