import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { TEAM_ROLE_LABELS } from '../../../shared/organiser-schemas.ts';
import { AcceptButton, SignInToAccept } from '../../components/accept-by-link.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf, useCurrentUser } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/organiser/invitations/$token')({ component: InvitationPage });

function InvitationPage() {
  const { token } = Route.useParams();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const invitation = trpc.console.invitation.useQuery({ token });
  const utils = trpc.useUtils();
  const accept = trpc.console.acceptInvitation.useMutation({
    // Gate staff came to scan tickets: straight to the scanner, not the console (issue 35).
    onSuccess: async ({ role }) => {
      await utils.console.invalidate();
      await navigate({ to: role === 'gate_staff' ? '/gate' : '/organiser' });
    },
  });
  if (invitation.isPending || me.isPending) return <LoadingText />;
  if (!invitation.data) {
    return (
      <NoticeText text={messageOf(invitation.error, 'This invitation link is invalid or has expired.')} />
    );
  }
  const { eventName, email, role, accepted } = invitation.data;
  const here = `/organiser/invitations/${token}`;
  return (
    <section className="mx-auto w-full max-w-lg px-4 py-12">
      <div className="rounded-xl border border-gray-200 p-6 shadow-sm">
        <h1 className="text-2xl font-bold">Join {eventName}</h1>
        <p className="mt-3 text-gray-700">
          You are invited to the team of {eventName} as {TEAM_ROLE_LABELS[role].toLowerCase()}. The invitation
          was sent to <strong>{email}</strong>.
        </p>
        {accepted ? (
          <p className="mt-4 text-gray-700">
            This invitation has been accepted.{' '}
            {role === 'gate_staff' ? (
              <Link to="/gate" className="font-semibold text-brand-700 underline">
                Open the gate scanner
              </Link>
            ) : (
              <Link to="/organiser" className="font-semibold text-brand-700 underline">
                Open the organiser console
              </Link>
            )}
          </p>
        ) : me.data ? (
          <AcceptButton
            label="Accept invitation"
            pending={accept.isPending}
            error={accept.error}
            onAccept={() => accept.mutate({ token })}
          />
        ) : (
          <div className="mt-6">
            <SignInToAccept redirect={here} />
          </div>
        )}
      </div>
    </section>
  );
}
