import type { Database } from '@cairn/db/client';

/**
 * Words of a museum's and shop's visitors and answers, most frequent first: a message draws them
 * skewed to the front (the square of a uniform number), so, as in real text, a few words are in
 * many messages and most in few, and a search is as selective as a person's.
 */
export const WORDS = `the you to a is do what and of in can for how my i it on open are your when at we with
have this be tickets there ticket visit today price opening hours book not an time tomorrow children
free parking please where group family weekend museum shop order delivery refund return lighthouse
exhibition guided tour cafe entrance card pay online discount student senior school member membership
garden wheelchair access toilet lift dog dogs allowed photos camera bag locker coat cloakroom map
audio guide language english german french spanish dutch italian closed holiday christmas easter
summer winter monday tuesday wednesday thursday friday saturday sunday morning afternoon evening late
night event concert workshop lecture kids birthday party private hire wedding catering menu vegan
gluten allergy coffee tea cake lunch breakfast dinner table reservation cancel change date email
confirmation receipt invoice voucher gift shop souvenir postcard poster book catalogue print frame
artist painting sculpture collection history ship sea harbour beach island ferry bus train station
taxi bicycle bike rent walk path trail view top stairs steps climb height keeper lamp light beam
signal fog storm weather rain wind sun sunset sunrise tide boat fishing whale seal bird birds nature
reserve protected area rules safety emergency first aid lost found phone number address contact
staff volunteer job career internship donation sponsor partner press media news newsletter subscribe
unsubscribe account password login app website error problem broken slow fast help person human
agent someone talk speak call back complaint feedback review rating thanks thank hello hi goodbye
bye sorry information about that question answer sure yes no maybe`
  .split(/\s+/)
  .filter(Boolean);

const SOURCES = ['web', 'api', 'widget', 'slack', 'telegram', 'mcp'];

/**
 * `conversations` chatrooms of the application with `messagesPer` messages each (a visitor's
 * question, the assistant's answer, in turns), spread over the 90 days before the last hour (no message in the future) across the six
 * sources; about 6% of the answers rated up, 3% down, 10% not covered (citing nothing), the others
 * citing one of a few knowledge items; 1% of the conversations waiting for a person, 2% taken over.
 * Written in batches of 10,000 conversations, then vacuumed and analysed.
 */
export async function generateConversations(
  database: Database,
  applicationId: number,
  conversations: number,
  messagesPer: number,
): Promise<void> {
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const batch = 10_000;
  for (let from = 1; from <= conversations; from += batch) {
    const to = Math.min(conversations, from + batch - 1);
    await database.query(
      `WITH rooms AS (
         INSERT INTO chatrooms (application_id, name, source, handled_by, waiting_since, visitor_uuid, created_at, updated_at, last_message_at)
         SELECT $1, 'Conversation ' || g, (ARRAY[${SOURCES.map((s) => `'${s}'`).join(',')}])[1 + g % 6],
                CASE WHEN g % 50 = 0 THEN 'human' ELSE 'assistant' END,
                CASE WHEN g % 100 = 7 THEN t.start + interval '5 minutes' END,
                NULL, t.start, t.start, t.start + ($4::int - 1) * interval '1 minute'
         FROM generate_series($2::int, $3::int) g,
              LATERAL (SELECT now() - interval '1 hour' - random() * interval '90 days' + 0 * g * interval '1 second' AS start) t
         RETURNING id, created_at)
       INSERT INTO messages (chatroom_id, sender_identifier, message, feedback, metadata, created_at, updated_at)
       SELECT r.id,
              CASE WHEN k % 2 = 1 THEN 'visitor_' || r.id ELSE 'assistant' END,
              (SELECT string_agg((${words})[1 + floor(power(random(), 2) * ${WORDS.length})::int], ' ')
               FROM generate_series(1, 6 + ((r.id * 7 + k * 13) % 15))),
              CASE WHEN k % 2 = 1 THEN NULL WHEN random() < 0.06 THEN 'up' WHEN random() < 0.032 THEN 'down' END,
              CASE WHEN k % 2 = 1 THEN '{}'::jsonb
                   WHEN random() < 0.1 THEN '{"not_covered": true}'::jsonb
                   ELSE jsonb_build_object('sources', jsonb_build_array(jsonb_build_object('index', 1,
                          'item_title', (ARRAY['Visitor guide', 'Opening hours', 'Tickets and prices', 'Shop FAQ'])[1 + (r.id + k) % 4])))
              END,
              r.created_at + (k - 1) * interval '1 minute', r.created_at + (k - 1) * interval '1 minute'
       FROM rooms r, generate_series(1, $4::int) k`,
      [applicationId, from, to, messagesPer],
    );
  }
  // As autovacuum leaves tables at rest: statistics, and a visibility map for index-only scans.
  await database.query('VACUUM (ANALYZE) chatrooms');
  await database.query('VACUUM (ANALYZE) messages');
}
