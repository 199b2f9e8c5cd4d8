// A throw-away PostgreSQL cluster for tests (issue 38, decision 098): `initdb` into a temporary folder, the server
// on a free port of 127.0.0.1 with its unix socket in that folder, password authentication (so a wrong password is
// refused as in production), and everything stopped and removed by stop() or, at the latest, when the process exits.
// PostgreSQL refuses to run as root: as root, the cluster's folder is given to the `postgres` user and every server
// command runs as that user (runuser). The binaries are Debian's (/usr/lib/postgresql/<version>/bin, which is not on
// PATH), or whatever `initdb` PATH finds; `.ci/run` installs Debian's `postgresql` when neither exists.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

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

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error("PostgreSQL's initdb was not found: install Debian's postgresql (.ci/run does) or set POSTGRES_BIN_DIR.");
  const as = runner(binDir);
  const dir = mkdtempSync(path.join(os.tmpdir(), "wp-pg-"));
  as.give(dir);
  const data = path.join(dir, "data");
  const user = "wp";
  const password = randomBytes(12).toString("hex");
  const pwfile = path.join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  as.give(pwfile);
  let port = 0;
  const stopServer = () => {
    if (existsSync(path.join(data, "postmaster.pid"))) {
      try {
        as.run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without stop() (a failed hook, an interrupt) still leaves nothing running.
  process.once("exit", stopServer);
  try {
    as.run("initdb", ["-D", data, "-U", user, `--pwfile=${pwfile}`, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"]);
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        as.run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]);
        break;
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  } catch (error) {
    const log = existsSync(path.join(dir, "server.log")) ? readFileSync(path.join(dir, "server.log"), "utf8") : "";
    stopServer();
    process.removeListener("exit", stopServer);
    throw new Error(`The test PostgreSQL cluster did not start: ${commandError(error)}\n${log}`);
  }

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
    async createDatabase(name = `test_${randomBytes(6).toString("hex")}`) {
      await query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      return url(name);
    },
    async stop() {
      stopServer();
      process.removeListener("exit", stopServer);
    },
  };
}
