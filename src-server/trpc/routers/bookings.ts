import { router } from '../init.ts';

export const bookingsRouter = router({});
