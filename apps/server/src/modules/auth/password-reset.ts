import crypto from 'node:crypto';
import { PASSWORD_RESET_MESSAGES, PASSWORD_RESET_TTL_MINUTES, type PasswordResetConfirm, type PasswordResetRequest } from '@bloodbank/shared/notifications';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { hashPassword } from '../../lib/passwords';
import { recordAudit } from '../audit/audit.repository';
import { queueEmail } from '../notifications/notify';
import { endResetLinks, lockAccount, setPassword, usernameKeyOf } from '../users/users.repository';

/** At most this many reset links per account per hour: more would only fill the owner's inbox. */
const LINKS_PER_ACCOUNT_PER_HOUR = 3;
/**
 * Asked by e-mail, at most this many accounts sharing the address get a link each, the oldest
 * first: to keep the owner's link from them a stranger would need this many accounts older than
 * theirs carrying their address (each link is rate-limited per account and per address).
 */
const ACCOUNTS_PER_ADDRESS = 20;
/**
 * Beyond each account's first link of the hour, at most this many links an hour to one address,
 * whichever accounts they are for: twenty accounts registered with someone's address, each allowed
 * three, mailed it sixty links an hour (reset links are outside the address's e-mail budget). An
 * account with no link in the last hour always gets one, so links asked for other accounts on the
 * address can never keep its owner out; the address gets at most about 20 + 6 an hour.
 */
const LINKS_PER_ADDRESS_PER_HOUR = 6;

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
export const invalidResetLink = () => new AppError(400, PASSWORD_RESET_MESSAGES.invalidToken, 'invalid_reset_token');

/**
 * POST /auth/password-reset (PRODUCT.md 3.8): the answer (202) never depends on whether the account
 * exists, and is sent before the account is even looked up: the work runs after it, so the timing
 * tells nothing either. For an active account with an address, a single-use token valid one hour is
 * stored as its SHA-256 hash only, and the link is e-mailed (through the queue).
 */
export function requestPasswordReset(ctx: AppContext, log: FastifyBaseLogger, request: PasswordResetRequest): void {
  void issueResetLink(ctx, request).catch((error: unknown) =>
    log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'a password reset could not be issued'),
  );
}

async function issueResetLink(ctx: AppContext, request: PasswordResetRequest): Promise<void> {
  let query = ctx.db.selectFrom('users').select(['id', 'username', 'email', 'first_name']).where('is_active', '=', 1);
  query = request.username
    ? query.where('username_key', '=', usernameKeyOf(request.username))
    : query.where((eb) => eb(eb.fn('lower', ['email']), '=', (request.email ?? '').toLowerCase()));
  // An address may be shared (one person as a donor and as a patient, a parent for two children;
  // or a stranger who typed someone else's): each account gets its own link, naming its username,
  // so nobody can stop the owner of an address from resetting their account by sharing it.
  const accounts = await query.orderBy('id').limit(ACCOUNTS_PER_ADDRESS).execute();
  for (const account of accounts) {
    if (account.email) await issueLinkFor(ctx, { ...account, email: account.email });
  }
}

/** Links issued since `since`: to one account, or to any account that has this address now. */
async function linksSince(trx: Transaction<DB>, since: string, to: { userId: number } | { email: string }): Promise<number> {
  const query = trx.selectFrom('password_resets').select((eb) => eb.fn.countAll<number>().as('count')).where('password_resets.created_at', '>', since);
  const row = await ('userId' in to
    ? query.where('password_resets.user_id', '=', to.userId)
    : query.innerJoin('users', 'users.id', 'password_resets.user_id').where((eb) => eb(eb.fn('lower', ['users.email']), '=', to.email.toLowerCase()))
  ).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** A link's token: 32 random bytes, 43 characters of base64url; anything longer is not one of ours. */
const TOKEN_BYTES = 32;
const MAX_TOKEN_LENGTH = 200;

async function issueLinkFor(ctx: AppContext, account: { id: number; username: string; email: string; first_name: string | null }): Promise<void> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
  await ctx.writes.run(async (trx) => {
    // The account's row first (lockAccount): an address changed since it was looked up gets no
    // link, as the change has just ended the links sent to it; and two instances count this
    // account's recent links one after the other.
    const stored = await lockAccount(trx, ctx.engine, account.id);
    if (!stored || stored.is_active !== 1 || stored.email !== account.email) return;
    const anHourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    const accountLinks = await linksSince(trx, anHourAgo, { userId: account.id });
    if (accountLinks >= LINKS_PER_ACCOUNT_PER_HOUR) return;
    // The account's first link of the hour always goes; later ones count against the address.
    if (accountLinks > 0 && (await linksSince(trx, anHourAgo, { email: account.email })) >= LINKS_PER_ADDRESS_PER_HOUR) return;
    await trx
      .insertInto('password_resets')
      .values({
        user_id: account.id,
        token_hash: hashOf(token),
        expires_at: new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000).toISOString(),
        created_at: at,
      })
      .execute();
    await queueEmail(
      ctx,
      trx,
      { email: account.email, name: account.first_name ?? account.username },
      {
        title: 'Reset your password',
        body: `Someone (we hope you) asked to reset the password of your account "${account.username}". Open the link below within ${PASSWORD_RESET_TTL_MINUTES} minutes to choose a new one. If it was not you, ignore this e-mail: your password stays as it is.`,
        path: `/reset-password?token=${token}`,
        action: 'Choose a new password',
      },
      at,
      'You get this e-mail because a password reset was asked for your account at the blood bank.',
      // Limited per account and per client already; a stranger spending the address's e-mail
      // budget (mail-budget.ts) must not be able to stop the owner from getting back in.
      { outsideBudget: true },
    );
  });
}

/**
 * POST /auth/password-reset/confirm: a valid, unused, unexpired token sets the new password (the
 * registration rules, checked by the body schema) and ends every session of the account; the token
 * is used up in the same conditional update that checks it, so it works once however many tries race.
 */
export async function confirmPasswordReset(ctx: AppContext, input: PasswordResetConfirm): Promise<void> {
  if (input.token === '' || input.token.length > MAX_TOKEN_LENGTH) throw invalidResetLink();
  const tokenHash = hashOf(input.token);
  const now = ctx.clock.now().toISOString();
  // Checked before the (deliberately slow) password hashing, so altered tokens cost nothing.
  const live = await ctx.db
    .selectFrom('password_resets')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!live) throw invalidResetLink();
  const passwordHash = await hashPassword(input.password);
  await ctx.writes.run(async (trx) => {
    // The account's row first (lockAccount), as the e-mail change locks it before the links: the
    // two never wait on each other crosswise.
    const user = await lockAccount(trx, ctx.engine, live.user_id);
    const used = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!used) throw invalidResetLink();
    // The token's account is the one locked above: the same token names it.
    if (!user || user.is_active !== 1) throw invalidResetLink();
    await setPassword(trx, user.id, passwordHash, now);
    // Any other link of the account dies with this one.
    await endResetLinks(trx, user.id, now);
    await recordAudit(trx, { actorId: user.id, actor: user.username, action: 'password.reset', entity: 'user', entityId: user.id, at: now });
  });
}
