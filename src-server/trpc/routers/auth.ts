import { getAccount } from '../../services/accounts/account.ts';
import { publicProcedure, router } from '../init.ts';

export const authRouter = router({
  /** The signed-in person's own account, or null when nobody is signed in. */
  me: publicProcedure.query(({ ctx }) => (ctx.user ? getAccount(ctx.db, ctx.user.id) : null)),
});
