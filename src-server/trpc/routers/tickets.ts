import { router } from '../init.ts';

export const ticketsRouter = router({});
