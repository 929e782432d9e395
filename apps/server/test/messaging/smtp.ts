/**
 * A real SMTP server on 127.0.0.1 for the mail tests (smtp-server, from the nodemailer project):
 * it keeps every accepted message, parsed with postal-mime, and refuses recipients whose address
 * starts with `refuse` (550) while `refusing` is on.
 */
import { SMTPServer } from 'smtp-server';
import PostalMime, { type Email } from 'postal-mime';
import { freePort } from '../free-port.js';

export interface CaughtMail {
  envelopeTo: string[];
  envelopeFrom: string;
  mail: Email;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: CaughtMail[];
  /** While true, recipients starting with `refuse` are refused with 550. */
  refusing: boolean;
  close: () => Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const port = await freePort();
  const state: TestSmtp = { url: `smtp://127.0.0.1:${port}`, port, received: [], refusing: true, close: async () => undefined };
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on the loopback: no STARTTLS offered, so the client does not ask for a certificate.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (state.refusing && address.address.startsWith('refuse')) {
        const error = new Error('5.1.1 <' + address.address + '>: Recipient address rejected: User unknown') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void PostalMime.parse(Buffer.concat(chunks)).then((mail) => {
          state.received.push({
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            mail,
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
