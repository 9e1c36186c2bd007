import { BookingIdInput } from '../../../shared/bookings-schemas.ts';
import {
  CheckoutQuestionsInput,
  CorrectAttendeeNameInput,
  CreateQuestionInput,
  RemoveQuestionInput,
  SetAttendeeNamesInput,
  UpdateQuestionInput,
} from '../../../shared/question-schemas.ts';
import { slotFormsOfEvent } from '../../services/questions/checkout-answers.ts';
import { correctAttendeeName } from '../../services/questions/correct-attendee-name.ts';
import {
  createQuestion,
  listEventQuestions,
  removeQuestion,
  setAttendeeNames,
  updateQuestion,
} from '../../services/questions/manage-questions.ts';
import { ownAttendees } from '../../services/questions/own-attendees.ts';
import { eventProcedure, protectedProcedure, publicProcedure, router } from '../init.ts';

/**
 * Attendee names and questions in the console (`console.ticketQuestions`, …): reading them is seeing
 * the editor (`edit`, as the codes), changing them is editing the event's ticket types (`edit`: owner,
 * co-organisers, admins; never gate staff). Another organiser's ids answer NOT_FOUND (ADR 0040).
 */
export const questionProcedures = {
  ticketQuestions: eventProcedure('edit').query(({ ctx }) => listEventQuestions(ctx.db, ctx.event.id)),

  createQuestion: eventProcedure('edit')
    .input(CreateQuestionInput)
    .mutation(({ ctx, input }) =>
      createQuestion(ctx.db, ctx.event.id, input.ticketTypeId, input.question, ctx.deps.clock.now()),
    ),

  updateQuestion: eventProcedure('edit')
    .input(UpdateQuestionInput)
    .mutation(({ ctx, input }) =>
      updateQuestion(ctx.db, ctx.event.id, input.questionId, input.question, ctx.deps.clock.now()),
    ),

  removeQuestion: eventProcedure('edit')
    .input(RemoveQuestionInput)
    .mutation(({ ctx, input }) =>
      removeQuestion(ctx.db, ctx.event.id, input.questionId, ctx.deps.clock.now()),
    ),

  setAttendeeNames: eventProcedure('edit')
    .input(SetAttendeeNamesInput)
    .mutation(({ ctx, input }) => setAttendeeNames(ctx.db, ctx.event.id, input.ticketTypeId, input.mode)),
};

/** The buyer's side: what the checkout asks, and correcting a name from My Bookings. */
export const questionsRouter = router({
  /** A published event's slot's questions (public, like its ticket types). */
  checkoutForm: publicProcedure
    .input(CheckoutQuestionsInput)
    .query(({ ctx, input }) => slotFormsOfEvent(ctx.db, input.eventId, input.slotId)),

  /** The holder's attendee names on their ticket page, and until when they can be corrected. */
  myAttendees: protectedProcedure
    .input(BookingIdInput)
    .query(({ ctx, input }) => ownAttendees(ctx.db, ctx.user.id, input.bookingId, ctx.deps.clock.now())),

  correctAttendeeName: protectedProcedure
    .input(CorrectAttendeeNameInput)
    .mutation(({ ctx, input }) => correctAttendeeName(ctx.db, ctx.user.id, input, ctx.deps.clock.now())),
});
