// The handlers this process runs, by job kind: their options (concurrency, lease, time limit), their
// payload schema and how many of each are running now.
import type { z } from "zod";
import { AppError } from "~/domain/errors";
import { HandlerOptionsSchema, JobKindSchema } from "~/domain/jobs";
import type { JobHandler, RegisterOptions } from "~/services/jobs/runtime.server";

export interface Registration {
  kind: string;
  handler: JobHandler<unknown>;
  options: z.output<typeof HandlerOptionsSchema>;
  payloadSchema?: z.ZodType<unknown>;
  running: number;
}

export type Registry = ReturnType<typeof createRegistry>;

export function createRegistry(deps: { wake: () => void }) {
  const registrations = new Map<string, Registration>();
  const defaultLeaseMs = HandlerOptionsSchema.parse({}).leaseMs;

  function register<P>(kind: string, handler: JobHandler<P>, options: RegisterOptions<P> = {}): void {
    const parsedKind = JobKindSchema.safeParse(kind);
    if (!parsedKind.success)
      throw new AppError(400, `"${kind}" is not a job kind: ${parsedKind.error.issues[0].message}`);
    if (registrations.has(kind)) throw new AppError(409, `A handler for job kind ${kind} is already registered.`);
    const { payloadSchema, ...rest } = options;
    const parsed = HandlerOptionsSchema.safeParse(rest);
    if (!parsed.success) throw new AppError(400, `Bad handler options for ${kind}: ${parsed.error.issues[0].message}`);
    registrations.set(kind, {
      kind,
      handler: handler as JobHandler<unknown>,
      options: parsed.data,
      payloadSchema: payloadSchema as z.ZodType<unknown> | undefined,
      running: 0,
    });
    deps.wake();
  }

  return {
    register,
    get: (kind: string) => registrations.get(kind),
    kinds: () => [...registrations.keys()],
    /** Kinds with a free slot (fewer running than their concurrency). */
    freeKinds: () => [...registrations.values()].filter((r) => r.running < r.options.concurrency).map((r) => r.kind),
    leaseMsFor: (kind: string) => registrations.get(kind)?.options.leaseMs ?? defaultLeaseMs,
  };
}
