// A throw-away PostgreSQL cluster for tests (issue 38, decision 098): `initdb` into a temporary folder, the server
// on a free port of 127.0.0.1 with its unix socket in that folder, password authentication (so a wrong password is
// refused as in production), and everything stopped and removed by stop() or, at the latest, when the process exits.
// PostgreSQL refuses to run as root: as root, the cluster's folder is given to the `postgres` user and every server
// command runs as that user (runuser). The binaries are Debian's (/usr/lib/postgresql/<version>/bin, which is not on
// PATH), or whatever `initdb` PATH finds; `.ci/run` installs Debian's `postgresql` when neither exists.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const execFileAsync = promisify(execFile);

export interface PostgresCluster {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** The folder holding the data directory, the unix socket and the server's log. */
  readonly dir: string;
  /** postgresql://user:password@127.0.0.1:port/database */
  url(database?: string, credentials?: { user?: string; password?: string }): string;
  /** Creates an empty database (a fresh name unless one is given) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Runs one statement on a database of the cluster (the maintenance database by default). */
  query(sql: string, database?: string): Promise<pg.QueryResult>;
  stop(): Promise<void>;
}

const DEBIAN_ROOT = "/usr/lib/postgresql";

/** The folder of PostgreSQL's server binaries: the newest Debian version, else where PATH finds initdb; null when absent. */
export function postgresBinDir(): string | null {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  if (existsSync(DEBIAN_ROOT)) {
    const versions = readdirSync(DEBIAN_ROOT)
      .filter((v) => existsSync(path.join(DEBIAN_ROOT, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return path.join(DEBIAN_ROOT, versions[0], "bin");
  }
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? path.dirname(found.stdout.trim()) : null;
}

/** A port nothing listens on right now (the server may still lose it to a race: start() then tries another). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen({ port: 0, host: "127.0.0.1" }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface Runner {
  run(bin: string, args: string[]): void;
  give(file: string): void;
}

/** Runs the server's commands as this user, or as `postgres` when this process is root. */
function runner(binDir: string): Runner {
  const root = process.getuid?.() === 0;
  const owner = root ? userIds("postgres") : null;
  return {
    run(bin, args) {
      const command = path.join(binDir, bin);
      const [file, argv] = root ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
      execFileSync(file, argv, { stdio: "pipe", cwd: os.tmpdir() });
    },
    give(file) {
      if (owner) chownSync(file, owner.uid, owner.gid);
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`This process runs as root and there is no "${name}" user to run PostgreSQL as: install Debian's postgresql.`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function commandError(error: unknown): string {
  const e = error as { stderr?: Buffer | string; message?: string };
  return String(e.stderr ?? "").trim() || String(e.message);
}

/** What a running cluster is: enough to reach it, and to stop it from another process. */
interface ClusterState {
  binDir: string;
  dir: string;
  port: number;
  user: string;
  password: string;
}

/** Stops the server (at once: nothing of it is kept) and removes its folder; safe to call twice. */
function removeCluster(state: Pick<ClusterState, "binDir" | "dir">): void {
  const data = path.join(state.dir, "data");
  if (existsSync(path.join(data, "postmaster.pid"))) {
    try {
      runner(state.binDir).run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
    } catch {
      // already stopped
    }
  }
  rmSync(state.dir, { recursive: true, force: true });
}

/** initdb and start; `onFolder` hears of the folder before anything runs in it, so an exit mid-start can remove it. */
async function launchCluster(onFolder: (state: Pick<ClusterState, "binDir" | "dir">) => void = () => {}): Promise<ClusterState> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error("PostgreSQL's initdb was not found: install Debian's postgresql (.ci/run does) or set POSTGRES_BIN_DIR.");
  const as = runner(binDir);
  const dir = mkdtempSync(path.join(os.tmpdir(), "wp-pg-"));
  as.give(dir);
  onFolder({ binDir, dir });
  const data = path.join(dir, "data");
  const user = "wp";
  const password = randomBytes(12).toString("hex");
  const pwfile = path.join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  as.give(pwfile);
  try {
    as.run("initdb", ["-D", data, "-U", user, `--pwfile=${pwfile}`, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"]);
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        as.run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]);
        return { binDir, dir, port, user, password };
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  } catch (error) {
    const log = existsSync(path.join(dir, "server.log")) ? readFileSync(path.join(dir, "server.log"), "utf8") : "";
    removeCluster({ binDir, dir });
    throw new Error(`The test PostgreSQL cluster did not start: ${commandError(error)}\n${log}`);
  }
}

/** The cluster's calls on a running server; `stop` is the owner's. */
function clusterOf(state: ClusterState, stop: () => Promise<void>): PostgresCluster {
  const { port, user, password, dir } = state;
  const url: PostgresCluster["url"] = (database = "postgres", credentials = {}) =>
    `postgresql://${credentials.user ?? user}:${encodeURIComponent(credentials.password ?? password)}@127.0.0.1:${port}/${database}`;
  const query = async (sql: string, database?: string) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    port,
    user,
    password,
    dir,
    url,
    query,
    async createDatabase(name = freshName()) {
      await query(`CREATE DATABASE ${quoted(name)}`);
      return url(name);
    },
    stop,
  };
}

const freshName = () => `test_${randomBytes(6).toString("hex")}`;
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A cluster of this process's own, for a test about clusters themselves or a bench; a test wanting a database calls freshPostgresDatabase(). */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  let folder: Pick<ClusterState, "binDir" | "dir"> | null = null;
  const stopServer = () => {
    if (folder) removeCluster(folder);
  };
  // A test process that ends without stop() (a failed hook, an interrupt) still leaves nothing running.
  process.once("exit", stopServer);
  let state: ClusterState;
  try {
    state = await launchCluster((f) => (folder = f));
  } catch (error) {
    process.removeListener("exit", stopServer);
    throw error;
  }
  return clusterOf(state, async () => {
    stopServer();
    process.removeListener("exit", stopServer);
  });
}

// One cluster per Vitest run, shared by every test file (decision 098): started by the first file that asks, stopped
// and removed by the run's global teardown (tests/setup/global-setup.ts: stopSharedPostgresCluster). Vitest runs each
// file in a process of its own, so the first file takes a lock file in the run's folder (TEST_TMP_DIR), starts the
// cluster and writes what reaches it there; the others wait for that file. A start that fails is written there too,
// so every file fails with its sentence (no initdb: "PostgreSQL's initdb was not found: ...") as a cluster of its own
// would. Files stay independent: each works in databases of its own (freshPostgresDatabase).

/** The shared cluster minus stop(): it belongs to the run, not to a file. */
export type SharedPostgresCluster = Omit<PostgresCluster, "stop">;

const TEMPLATE = "wp_migrated_template";
/** pg_advisory_lock's key for making the migrated template (any number no one else in the cluster uses). */
const TEMPLATE_LOCK = 98;

function sharedFiles(runDir = process.env.TEST_TMP_DIR) {
  if (!runDir) throw new Error("TEST_TMP_DIR is not set: run the tests through vitest (tests/setup/global-setup.ts)");
  return { lock: path.join(runDir, "postgres.lock"), state: path.join(runDir, "postgres.json") };
}

type SharedState = { cluster: ClusterState } | { error: string };

function readShared(file: string): SharedState | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SharedState) : null;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function sharedState(): Promise<ClusterState> {
  const files = sharedFiles();
  let state = readShared(files.state);
  if (!state) {
    let starter = false;
    try {
      writeFileSync(files.lock, String(process.pid), { flag: "wx" });
      starter = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (starter) {
      try {
        state = { cluster: await launchCluster() };
      } catch (error) {
        state = { error: (error as Error).message };
      }
      // Written whole, then renamed: a reader never sees half of it.
      writeFileSync(`${files.state}.part`, JSON.stringify(state));
      renameSync(`${files.state}.part`, files.state);
    } else {
      const starterPid = Number(readFileSync(files.lock, "utf8"));
      for (const end = Date.now() + 120_000; !(state = readShared(files.state)); ) {
        if (Date.now() > end || (starterPid && !processAlive(starterPid))) {
          throw new Error(`The shared test PostgreSQL cluster was not started: process ${starterPid} took it on and wrote nothing to ${files.state}.`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  if ("error" in state) throw new Error(state.error);
  return state.cluster;
}

/** The run's one cluster (started on first call). For what a URL cannot do: another user's URL, a raw query. */
export async function sharedPostgresCluster(): Promise<SharedPostgresCluster> {
  const { stop: _stop, ...cluster } = clusterOf(await sharedState(), async () => {});
  return cluster;
}

/** Makes the template once per run: an empty database `prisma migrate deploy` migrates, then marked a template. */
async function ensureMigratedTemplate(cluster: SharedPostgresCluster): Promise<void> {
  const client = new pg.Client({ connectionString: cluster.url() });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
    const found = await client.query("SELECT datistemplate FROM pg_database WHERE datname = $1", [TEMPLATE]);
    if (found.rows[0]?.datistemplate) return;
    // A template a failed attempt left half-made is made again.
    await client.query(`DROP DATABASE IF EXISTS ${quoted(TEMPLATE)}`);
    await client.query(`CREATE DATABASE ${quoted(TEMPLATE)}`);
    await execFileAsync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
      env: { ...process.env, DATABASE_URL: cluster.url(TEMPLATE), PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
      cwd: path.resolve("."),
    });
    await client.query(`ALTER DATABASE ${quoted(TEMPLATE)} IS_TEMPLATE true`);
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK]).catch(() => {});
    await client.end();
  }
}

/**
 * A new database of this test file's own on the run's shared cluster, and its URL: migrated from
 * prisma/postgresql/migrations (a copy of the run's migrated template, as `prisma migrate deploy` leaves it), or with
 * `{ empty: true }` a database with nothing in it (for a test of migrating, or of a program that migrates itself).
 */
export async function freshPostgresDatabase(options: { empty?: boolean } = {}): Promise<string> {
  const cluster = await sharedPostgresCluster();
  if (options.empty) return cluster.createDatabase();
  await ensureMigratedTemplate(cluster);
  const name = freshName();
  await cluster.query(`CREATE DATABASE ${quoted(name)} TEMPLATE ${quoted(TEMPLATE)}`);
  return cluster.url(name);
}

/** The run's teardown: stops and removes the shared cluster if a file started one (a run without PostgreSQL tests starts none). */
export function stopSharedPostgresCluster(runDir: string): void {
  const state = readShared(sharedFiles(runDir).state);
  if (state && "cluster" in state) removeCluster(state.cluster);
}
