import { useBlocker } from '@tanstack/react-router';
import Modal from '../modal.tsx';

interface Form {
  formState: { isDirty: boolean; isSubmitting: boolean };
}

/**
 * Warns before a form's unsaved edits are lost: an in-app link or Back asks first (TanStack Router's
 * blocker, our own dialog), and closing or reloading the tab gets the browser's own 'Leave site?'
 * (beforeunload). Only while the form is dirty, and not while it is being saved (a save that navigates
 * on success, like "Create draft", leaves freely).
 */
export function UnsavedChangesGuard({ form }: { form: Form }) {
  // Read during render, so react-hook-form re-renders this form when it becomes dirty or clean.
  void form.formState.isDirty;
  const blocker = useBlocker({
    shouldBlockFn: () => form.formState.isDirty && !form.formState.isSubmitting,
    enableBeforeUnload: () => form.formState.isDirty && !form.formState.isSubmitting,
    withResolver: true,
  });
  if (blocker.status !== 'blocked') return null;
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) blocker.reset();
      }}
      title="Leave without saving?"
      description="Your changes in this form are not saved yet. If you leave now, they are lost."
      className="w-[min(92vw,28rem)] p-5"
      headerClassName="flex items-start justify-between gap-3"
    >
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => blocker.reset()}
          className="rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50"
        >
          Stay on this page
        </button>
        <button
          type="button"
          onClick={() => blocker.proceed()}
          className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800"
        >
          Leave without saving
        </button>
      </div>
    </Modal>
  );
}
