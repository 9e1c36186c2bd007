import { router } from '../init.ts';

export const eventsRouter = router({});
