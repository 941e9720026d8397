import { type apiHelpers, expect, type TestUser } from './fixtures';

type Api = ReturnType<typeof apiHelpers>;

/** Asks in a new chatroom through the chat API and waits for the finished answer. */
export async function ask(api: Api, user: TestUser, appId: string, question: string) {
  const me = await api.call<{ sender_identifier: string }>('GET', '/api/me/', { token: user.token });
  const sent = await api.call<{ chatroom: { uuid: string }; answer: { uuid: string } }>(
    'POST',
    `/api/applications/${appId}/chatrooms/send-message/`,
    {
      token: user.token,
      json: {
        chatroom_identifier: 'new_chat',
        message: question,
        sender_identifier: me.body.sender_identifier,
        metadata: { source: 'web' },
        send_to_user: false,
      },
    },
  );
  expect(sent.status).toBe(201);
  const { chatroom, answer } = sent.body;
  await expect
    .poll(async () => {
      const res = await api.call<{ messages: Array<{ uuid: string; status: string }> }>(
        'GET',
        `/api/applications/${appId}/chatrooms/${chatroom.uuid}/messages/`,
        { token: user.token },
      );
      return res.body.messages.find((m) => m.uuid === answer.uuid)?.status;
    })
    .toBe('complete');
  return { chatroom: chatroom.uuid, answer: answer.uuid };
}
