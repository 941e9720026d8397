import type { TApplicationSummary } from '@cairn/contracts/applications';
import { data, Link } from 'react-router';
import { BookOpenIcon, KeyRoundIcon, SquarePenIcon } from '../components/icons';
import { PageHeader } from '../components/page-header';
import { Button } from '../components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { ApplicationActions } from '../features/applications/application-actions';
import { useLiveItems } from '../features/knowledge/use-kb-updates';
import {
  loadApplicationSettings,
  saveApplicationSettings,
} from '../features/models/application-settings.server';
import { ApplicationSettingsForm, useSettingsSavedToast } from '../features/models/application-settings-form';
import { KnowledgeIndexProgress } from '../features/models/knowledge-index-progress';
import { apiFor } from '../lib/api.server';
import { ApiError } from '../lib/api-error';
import { NEW_CHAT_ID } from '../lib/utils';
import type { Route } from './+types/application';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Overview · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  const api = apiFor(args);
  const { appId } = args.params;
  try {
    // The items' call answers 404 for an application that is not the caller's (so does the layout's).
    const settings = await loadApplicationSettings(api, appId);
    // What the application holds is for the Manage menu's dialogs only: asked once the page's own
    // data is in and streamed after the page (docs/decisions/087), not waited for by its first byte.
    const counts = api.get<TApplicationSummary[]>('/api/applications/summaries/').then((summaries) => {
      const found = summaries.find((s) => s.uuid === appId)?.counts;
      if (!found) throw new Error('The application is gone.');
      return found;
    });
    return { ...settings, counts };
  } catch (error) {
    // Someone else's or a deleted application: the page does not exist.
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    throw error;
  }
}

export async function action(args: Route.ActionArgs) {
  return saveApplicationSettings(apiFor(args), args.params.appId, await args.request.formData());
}

/** Application overview: where to go next, then the application's models and answer settings. */
export default function ApplicationOverview({ loaderData }: Route.ComponentProps) {
  // The layout's navigation selected this page's application (or answered 404).
  const application = useNavigationData().selected;
  const { models, counts } = loaderData;
  const { items } = useLiveItems(application?.uuid ?? '', loaderData.items);
  useSettingsSavedToast(application?.uuid ?? '');
  if (!application) return null;
  const base = `/applications/${application.uuid}`;
  const links = [
    {
      to: `${base}/knowledge-base`,
      icon: <BookOpenIcon />,
      title: 'Knowledge base',
      text: 'Files, text and web pages the assistant answers from.',
    },
    {
      to: `${base}/messages/${NEW_CHAT_ID}`,
      icon: <SquarePenIcon />,
      title: 'Chat',
      text: 'Ask the assistant a question.',
    },
    {
      to: `${base}/api-keys-and-widget`,
      icon: <KeyRoundIcon />,
      title: 'API keys & widget',
      text: 'Use the assistant from your own site or code.',
    },
  ];
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={application.name}
        description="Overview"
        actions={
          <>
            {/* The live item count: items added or deleted since the page loaded are counted. */}
            <ApplicationActions application={application} counts={counts} knowledgeItems={items.length} />
            <Button asChild>
              <Link to={`${base}/messages/${NEW_CHAT_ID}`}>
                <SquarePenIcon aria-hidden="true" />
                New Chat
              </Link>
            </Button>
          </>
        }
      />
      <div className="grid gap-4 sm:grid-cols-3">
        {links.map((l) => (
          <Link
            key={l.to}
            to={l.to}
            className="rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <Card className="h-full gap-2 transition-colors hover:bg-accent">
              <CardHeader>
                <div className="mb-1 text-muted-foreground [&_svg]:size-5" aria-hidden="true">
                  {l.icon}
                </div>
                <CardTitle className="text-base">
                  <span>{l.title}</span>
                </CardTitle>
                <CardDescription>{l.text}</CardDescription>
              </CardHeader>
            </Card>
          </Link>
        ))}
      </div>
      <section aria-labelledby="settings-heading" className="mt-10 grid gap-6">
        <div className="grid gap-1">
          <h2 id="settings-heading" className="text-lg font-semibold">
            Models and answers
          </h2>
          <p className="text-muted-foreground text-sm">
            The first text and the first embedding model of the application are the ones it uses.
          </p>
        </div>
        <KnowledgeIndexProgress items={items} appId={application.uuid} />
        <ApplicationSettingsForm
          key={application.updated_at}
          application={application}
          models={models}
          itemCount={items.length}
        />
      </section>
    </div>
  );
}
