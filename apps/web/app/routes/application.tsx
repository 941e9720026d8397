import { BookOpenIcon, KeyRoundIcon, SquarePenIcon } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '../components/page-header';
import { Button } from '../components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { NEW_CHAT_ID } from '../lib/utils';
import type { Route } from './+types/application';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Overview · Cairn' }];

/** Application overview; the models work fills in the selected models here (features/models). */
export default function ApplicationOverview() {
  const { selected } = useNavigationData();
  if (!selected) return null;
  const base = `/applications/${selected.uuid}`;
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
        title={selected.name}
        description="Overview"
        actions={
          <Button asChild>
            <Link to={`${base}/messages/${NEW_CHAT_ID}`}>
              <SquarePenIcon aria-hidden="true" />
              New chat
            </Link>
          </Button>
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
    </div>
  );
}
