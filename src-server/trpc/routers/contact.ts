import { router } from '../init.ts';

export const contactRouter = router({});
