import { createLazyRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { EditorReloadContext } from '../../components/console/edit-error.tsx';
import { EventEditor } from '../../components/console/event-editor.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/_event/organiser/events/$eventId/edit')({
  component: EditorPage,
});

function EditorPage() {
  const { eventId } = Route.useParams();
  const event = trpc.organiser.editableEvent.useQuery({ eventId });
  // Bumped by "Reload" after a version conflict: the forms start again from what is saved now.
  const [generation, setGeneration] = useState(0);
  // Who may edit is the event layout's to decide (event-layout.tsx: gate staff and the box office are
  // shown "Not allowed" before this page renders), as the server's 'edit' permission does.
  if (event.isPending) return <LoadingText />;
  if (!event.data) return <NoticeText text={messageOf(event.error, 'Event not found')} />;
  const reload = async () => {
    await event.refetch();
    setGeneration((g) => g + 1);
  };
  // Someone else saved first: any edit's error line offers this (EditError).
  return (
    <EditorReloadContext.Provider value={() => void reload()}>
      <EventEditor key={generation} event={event.data} />
    </EditorReloadContext.Provider>
  );
}
