import { createLazyRoute } from '@tanstack/react-router';
import { formatLongDate } from '../../../shared/dates.ts';
import { InviteTeamMemberInput, TEAM_ROLE_LABELS, TEAM_ROLES } from '../../../shared/organiser-schemas.ts';
import { EmailRoleForm } from '../../components/console/email-role-form.tsx';
import { ConsoleEventHeader, useLayoutEvent } from '../../components/console/event-page.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_console/_event/organiser/events/$eventId/team')({
  component: TeamPage,
});

function TeamPage() {
  const { eventId } = Route.useParams();
  // Who may see the team (not gate staff, not the box office) is the event layout's check.
  const event = useLayoutEvent();
  const team = trpc.console.team.useQuery({ eventId });
  return (
    <section className="mx-auto w-full max-w-4xl space-y-8 px-4 py-8">
      <ConsoleEventHeader title={`Team of ${event.name}`} />
      {team.isPending ? (
        <LoadingText />
      ) : team.data ? (
        <>
          <section aria-labelledby="members-heading">
            <h2 id="members-heading" className="text-xl font-bold">
              Members
            </h2>
            {team.data.members.length === 0 ? (
              <p className="mt-2 text-gray-600">Nobody yet besides the owner.</p>
            ) : (
              <ul className="mt-3 divide-y divide-gray-200 rounded-xl border border-gray-200">
                {team.data.members.map((m) => (
                  <li key={m.userId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                    <span>
                      <span className="font-semibold">{m.name ?? m.email}</span>{' '}
                      <span className="text-sm text-gray-600">
                        {m.email} · {TEAM_ROLE_LABELS[m.role]}
                      </span>
                    </span>
                    <RemoveButton eventId={eventId} memberUserId={m.userId} who={m.name ?? m.email} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="invitations-heading">
            <h2 id="invitations-heading" className="text-xl font-bold">
              Invitations waiting
            </h2>
            {team.data.invitations.length === 0 ? (
              <p className="mt-2 text-gray-600">None.</p>
            ) : (
              <ul className="mt-3 divide-y divide-gray-200 rounded-xl border border-gray-200">
                {team.data.invitations.map((i) => (
                  <li key={i.id} className="px-4 py-3 text-sm">
                    {i.email} · {TEAM_ROLE_LABELS[i.role]} · valid until {formatLongDate(i.expiresAt)}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {/* Everyone who sees the team may change it: the owner, co-organisers and admins. */}
          <InviteMember eventId={eventId} />
        </>
      ) : (
        <NoticeText text={messageOf(team.error)} />
      )}
    </section>
  );
}

function RemoveButton({
  eventId,
  memberUserId,
  who,
}: {
  eventId: string;
  memberUserId: string;
  who: string;
}) {
  const utils = trpc.useUtils();
  const remove = trpc.console.removeMember.useMutation({ onSettled: () => utils.console.team.invalidate() });
  return (
    <button
      type="button"
      disabled={remove.isPending}
      onClick={() => remove.mutate({ eventId, memberUserId })}
      aria-label={`Remove ${who}`}
      className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-60"
    >
      Remove
    </button>
  );
}

function InviteMember({ eventId }: { eventId: string }) {
  const utils = trpc.useUtils();
  const invite = trpc.console.invite.useMutation({ onSuccess: () => utils.console.team.invalidate() });
  return (
    <section aria-labelledby="invite-heading" className="max-w-md">
      <h2 id="invite-heading" className="text-xl font-bold">
        Invite someone
      </h2>
      <EmailRoleForm
        schema={InviteTeamMemberInput}
        defaultRole="gate_staff"
        emailLabel="Their e-mail"
        roleLabel="Role"
        rolePlaceholder="Choose a role"
        roles={TEAM_ROLES}
        roleLabels={TEAM_ROLE_LABELS}
        submitLabel="Send invitation"
        busyText="Sending..."
        onSubmit={async (values) => {
          await invite.mutateAsync({ eventId, ...values });
          return `Invitation sent to ${values.email}.`;
        }}
      />
    </section>
  );
}
