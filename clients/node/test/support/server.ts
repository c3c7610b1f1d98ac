// Starts a real Hourglass server for the tests and the benchmark: `<repo>/hourglass server` with the jar already
// built (HOURGLASS_SKIP_BUILD=1), an embedded Redis and a data directory of its own. The server picks a free port
// (--port 0) unless told one and says where it listens in its log; readiness is then awaited on /health/ready.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface ServerOptions {
  /** A fixed port, e.g. to restart a server where it was; default a free one. */
  port?: number;
  /** Default a new temporary directory, removed by `stop()`. */
  dataDir?: string;
  /** More flags, e.g. `--admin-token`. */
  args?: string[];
}

export interface RunningServer {
  url: string;
  /** The server's process (the launcher execs java). */
  pid: number;
  port: number;
  dataDir: string;
  /** SIGTERM, then waits for the process to end; removes a data directory it made when `removeData`. */
  stop(removeData?: boolean): Promise<void>;
  /** SIGKILL (the embedded Redis's watchdog stops Redis), then waits for the process to end. */
  kill(): Promise<void>;
}

/** The repository's root: two levels above the package directory (clients/node). */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!isPackageDir(dir)) {
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error("could not find clients/node/package.json above " + fileURLToPath(import.meta.url));
    }
    dir = parent;
  }
  return resolve(dir, "..", "..");
}

function isPackageDir(dir: string): boolean {
  const file = join(dir, "package.json");
  return existsSync(file) && JSON.parse(readFileSync(file, "utf8")).name === "@hourglass/client";
}

const running = new Set<ChildProcess>();
process.on("exit", () => running.forEach((child) => child.kill("SIGKILL")));

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const ownData = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "hourglass-node-"));
  const launcher = join(repoRoot(), "hourglass");
  const args = ["server", "--port", String(options.port ?? 0), "--data-dir", dataDir, "--log-format", "text"];
  const child = spawn(launcher, [...args, ...(options.args ?? [])], {
    env: { ...process.env, HOURGLASS_SKIP_BUILD: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(child));
  const url = await listeningUrl(child, exited);
  await awaitReady(url, exited);
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid as number,
    dataDir,
    async stop(removeData = ownData) {
      child.kill("SIGTERM");
      await exited;
      if (removeData) {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The URL of the server's "Hourglass listening on http://..." log line; rejects with its output if it exits. */
function listeningUrl(child: ChildProcess, exited: Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const match = /listening on (https?:\/\/[^\s,]+)/.exec(output);
      if (match) {
        resolve(match[1] as string);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then(() => reject(new Error(`the server exited before it listened:\n${output}`)));
  });
}

/** Polls /health/ready until it answers 200. */
async function awaitReady(url: string, exited: Promise<void>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  while (!gone) {
    if ((await status(`${url}/health/ready`)) === 200) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server at ${url} exited before it was ready`);
}

function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

/**
 * Names an embedded Redis runs under: `--embedded-redis auto` prefers an installed valkey-server. Debian's
 * redis-server and valkey-server are links to redis-check-rdb and valkey-check-rdb, which the kernel may report.
 */
const REDIS_NAMES = /(^|\/)(redis|valkey)-(server|check-rdb)\b/;

/** The pid of the embedded Redis a server started: its child process that is a redis-server or valkey-server. */
export function embeddedRedisPid(server: RunningServer): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    let stat: string;
    let commandLine: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")[0] ?? "";
    } catch {
      continue; // the process ended meanwhile
    }
    // "pid (comm) state ppid ...": comm (at most 15 characters) may hold spaces, so read around its parentheses
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === server.pid && (REDIS_NAMES.test(commandLine) || /^(redis|valkey)-/.test(comm))) {
      return Number(entry);
    }
  }
  throw new Error(`no redis-server or valkey-server child of the server (pid ${server.pid})`);
}

interface TcpSocket {
  localPort: number;
  remotePort: number;
  /** Bytes received that the socket's process has not read yet. */
  unread: number;
  inode: string;
}

/** The established TCP connections of this machine (/proc/net/tcp and tcp6). */
function tcpConnections(): TcpSocket[] {
  const sockets: TcpSocket[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = existsSync(table) ? readFileSync(table, "utf8").trim().split("\n").slice(1) : [];
    for (const line of lines) {
      // sl local_address rem_address st tx_queue:rx_queue tr:when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== "01") {
        continue; // not ESTABLISHED
      }
      const port = (address: string | undefined): number => parseInt(address?.split(":")[1] ?? "", 16);
      sockets.push({
        localPort: port(fields[1]),
        remotePort: port(fields[2]),
        unread: parseInt(fields[4]?.split(":")[1] ?? "0", 16),
        inode: fields[9] ?? "",
      });
    }
  }
  return sockets;
}

/** Connections to the server at `port` that hold received bytes its process has not read (e.g. while stopped). */
export function unreadRequests(port: number): number {
  return tcpConnections().filter((socket) => socket.localPort === port && socket.unread > 0).length;
}

/** How many connections this process has open to `port`. */
export function connectionsTo(port: number): number {
  const mine = new Set<string>();
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (match) {
        mine.add(match[1] as string);
      }
    } catch {
      // closed meanwhile
    }
  }
  return tcpConnections().filter((socket) => socket.remotePort === port && mine.has(socket.inode)).length;
}
