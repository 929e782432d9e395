/**
 * A real SMTP server on 127.0.0.1 (smtp-server) that keeps what it receives, and a second app
 * server on its own embedded database sending through it: for the specs that follow an e-mail
 * from Bilan to the customer's inbox (issue 15 §1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface Caught {
  to: string[];
  mail: Email;
}

/** Listens on 127.0.0.1:`port`; every message received is parsed and pushed to `caught`. */
export function startSmtp(port: number, caught: Caught[]): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void PostalMime.parse(Buffer.concat(chunks)).then((mail) => {
          caught.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        }, callback);
      });
    },
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

export const stopSmtp = (server: SMTPServer | undefined) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/**
 * The built app on `port` with its own embedded database and `BILAN_SMTP_URL` pointing at
 * 127.0.0.1:`smtpPort`; resolves once it answers. Stop it with `stopApp`.
 */
export async function startMailApp(port: number, smtpPort: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn('npm', ['run', 'serve'], {
    cwd: join(import.meta.dirname, '..', '..'),
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      BILAN_PUBLIC_URL: `http://localhost:${port}`,
      BILAN_DATA_DIR: mkdtempSync(join(tmpdir(), 'bilan-e2e-mail-')),
      BILAN_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      BILAN_MAIL_FROM: 'Muster AG <rechnung@muster.example>',
      BILAN_JOB_POLL_SECONDS: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...env,
    },
  });
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(`http://localhost:${port}/api/meta/version`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the app with a mail server did not start');
}

export function stopApp(child: ChildProcess | undefined): void {
  if (child?.pid) process.kill(-child.pid, 'SIGTERM');
}
