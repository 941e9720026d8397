import { redirect } from 'react-router';
import { PageHeader } from '../components/page-header';
import { accountAction, loadAccount } from '../features/account/account.server';
import { EmailCard, PasswordCard, ProfileCard } from '../features/account/account-forms';
import { DeleteAccountCard } from '../features/account/delete-account-card';
import { SessionsCard } from '../features/account/sessions-card';
import { apiFor } from '../lib/api.server';
import { webLoadContext } from '../lib/load-context';
import { clearAuthCookie } from '../lib/session.server';
import type { Route } from './+types/settings.account';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Account · Settings · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  return loadAccount(apiFor(args));
}

export async function action(args: Route.ActionArgs) {
  const answer = await accountAction(apiFor(args), await args.request.formData());
  if (answer === 'deleted')
    throw redirect('/login', {
      headers: { 'Set-Cookie': clearAuthCookie(webLoadContext(args.context).secureCookies) },
    });
  return answer;
}

/** The account page (issue 26, decision 058): names, e-mail, password, sessions, deletion. */
export default function SettingsAccount({ loaderData }: Route.ComponentProps) {
  const { user, applications } = useNavigationData();
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader title="Account" description="Your name, sign-in details and sessions." />
      <ProfileCard user={user} />
      <EmailCard email={user.email} pendingEmail={loaderData.pendingEmail} />
      <PasswordCard />
      <SessionsCard sessions={loaderData.sessions} />
      <DeleteAccountCard applications={applications.length} />
    </div>
  );
}
