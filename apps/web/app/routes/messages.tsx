import { MessageSquareIcon } from 'lucide-react';
import { useParams } from 'react-router';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import { NEW_CHAT_ID, NEW_CHAT_NAME } from '../lib/utils';
import type { Route } from './+types/messages';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Chat · Cairn' }];

/** Placeholder until the chat work fills it (features/chat). `new_chat` is the local draft chatroom. */
export default function Messages() {
  const { chatroomId } = useParams();
  const { chatrooms, selected } = useNavigationData();
  const name =
    chatroomId === NEW_CHAT_ID
      ? NEW_CHAT_NAME
      : (chatrooms.chatrooms.find((c) => c.uuid === chatroomId)?.name ?? 'Chat');
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title={name} description={selected?.name} />
      <EmptyState
        icon={<MessageSquareIcon />}
        title="No messages yet"
        description="Chatting is not available yet. Messages of this chat will appear here."
      />
    </div>
  );
}
