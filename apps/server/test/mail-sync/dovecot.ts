/**
 * A real IMAP server for the mail sync tests: Debian's dovecot-imapd, started without root with a
 * throwaway configuration and Maildir under a temporary directory, plain IMAP (ssl = no) on a free
 * port of 127.0.0.1, one user from a passwd-file. `deliver` drops a message into a folder's new/
 * directory, as a local delivery agent would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { freePort } from '../free-port.js';

export interface TestImap {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Puts a raw RFC 5322 message into `folder` (INBOX or a subfolder created here). */
  deliver: (raw: Buffer, folder?: string) => void;
  /** Creates an empty folder (Maildir++ `.Name`). */
  createFolder: (name: string) => void;
  close: () => Promise<void>;
}

const isOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startDovecot(): Promise<TestImap> {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-dovecot-'));
  const port = await freePort();
  const user = 'sync';
  const password = 'app-password-123';
  const me = userInfo();
  const home = join(dir, 'mail', user);
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(home, sub), { recursive: true });
  mkdirSync(join(dir, 'run'));
  mkdirSync(join(dir, 'state'));
  writeFileSync(join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`);
  chmodSync(dir, 0o755);
  // As root (containers), dovecot runs its login and internal processes as its own users and the
  // mail as nobody; as a normal user (CI), everything runs as that user.
  const root = me.uid === 0;
  const mailUid = root ? 65534 : me.uid;
  const mailGid = root ? 65534 : me.gid;
  const own = (path: string) => {
    if (root) chownSync(path, mailUid, mailGid);
  };
  for (const path of [join(dir, 'mail'), home, ...['cur', 'new', 'tmp'].map((sub) => join(home, sub))]) own(path);
  writeFileSync(
    join(dir, 'dovecot.conf'),
    `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${root ? 'dovecot' : me.username}
default_login_user = ${root ? 'dovenull' : me.username}
mail_location = maildir:${dir}/mail/%u
first_valid_uid = 0
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${home}
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service pop3-login {
  chroot =
}
service submission-login {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn('/usr/sbin/dovecot', ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  for (let i = 0; i < 100 && !(await isOpen(port)); i += 1) {
    if (child.exitCode !== null) throw new Error(`dovecot exited: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let counter = 0;
  const folderDir = (folder: string) => (folder === 'INBOX' ? home : join(home, `.${folder}`));
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    deliver: (raw, folder = 'INBOX') => {
      counter += 1;
      const file = join(folderDir(folder), 'new', `${Date.now()}.M${counter}P${process.pid}.bilan`);
      writeFileSync(file, raw);
      own(file);
    },
    createFolder: (name) => {
      mkdirSync(folderDir(name));
      own(folderDir(name));
      for (const sub of ['cur', 'new', 'tmp']) {
        mkdirSync(join(folderDir(name), sub));
        own(join(folderDir(name), sub));
      }
    },
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      if (!process.env.KEEP_DOVECOT) rmSync(dir, { recursive: true, force: true });
    },
  };
}
