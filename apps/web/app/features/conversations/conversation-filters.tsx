import { CHATROOM_SOURCE_LABELS, CHATROOM_SOURCES } from '@cairn/contracts/chatroom-rules';
import { CONVERSATION_SEARCH_MAX } from '@cairn/contracts/conversation-limits';
import { Form, Link } from 'react-router';
import { SearchIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../models/native-select';

/**
 * The log's search and filters: a GET form, so they live in the URL's search params (a reload, a
 * shared link and the back button keep them) and work before the page is hydrated.
 */
export function ConversationFilters({ search, clearTo }: { search: URLSearchParams; clearTo: string }) {
  // Keyed by the URL: the fields show what is applied after every navigation, back included.
  return (
    <Form
      method="get"
      role="search"
      aria-label="Conversations"
      className="grid gap-4"
      key={search.toString()}
    >
      <div className="flex gap-2">
        <Label htmlFor="log-q" className="sr-only">
          Search conversations
        </Label>
        <Input
          id="log-q"
          name="q"
          type="search"
          placeholder="Search questions and answers"
          maxLength={CONVERSATION_SEARCH_MAX}
          defaultValue={search.get('q') ?? ''}
          className="flex-1"
        />
        <Button type="submit">
          <SearchIcon aria-hidden="true" />
          Search
        </Button>
      </div>
      <div className="grid grid-cols-2 gap-x-3 gap-y-4 rounded-xl border p-4 lg:grid-cols-4">
        <fieldset className="col-span-2 grid gap-2 lg:col-span-4">
          <legend className="mb-2 font-medium text-sm">Source</legend>
          <div className="flex flex-wrap gap-2">
            {CHATROOM_SOURCES.map((source) => (
              <label
                key={source}
                className="flex items-center gap-2 rounded-md border px-2.5 py-1 text-sm has-checked:border-primary has-checked:bg-primary/10"
              >
                <input
                  type="checkbox"
                  name="source"
                  value={source}
                  className="size-4 accent-primary"
                  defaultChecked={search.getAll('source').includes(source)}
                />
                {CHATROOM_SOURCE_LABELS[source]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor="log-from">Started from</Label>
          <Input id="log-from" name="from" type="date" defaultValue={search.get('from') ?? ''} />
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor="log-to">Started until</Label>
          <Input id="log-to" name="to" type="date" defaultValue={search.get('to') ?? ''} />
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor="log-rating">Rating</Label>
          <NativeSelect id="log-rating" name="rating" defaultValue={search.get('rating') ?? ''}>
            <option value="">Any</option>
            <option value="up">Rated good</option>
            <option value="down">Rated bad</option>
            <option value="none">Not rated</option>
          </NativeSelect>
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor="log-status">Status</Label>
          <NativeSelect id="log-status" name="status" defaultValue={search.get('status') ?? ''}>
            <option value="">Any</option>
            <option value="waiting">Waiting for a person</option>
            <option value="human">Taken over</option>
            <option value="assistant">Answered by the assistant</option>
          </NativeSelect>
        </div>
        <label className="col-span-2 flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="not_covered"
            value="true"
            className="size-4 accent-primary"
            defaultChecked={search.get('not_covered') === 'true'}
          />
          Only with questions the knowledge did not cover
        </label>
        <div className="col-span-2 flex flex-wrap items-center justify-end gap-2">
          <Button variant="ghost" asChild>
            <Link to={clearTo}>Clear filters</Link>
          </Button>
          <Button type="submit" variant="outline">
            Apply filters
          </Button>
        </div>
      </div>
    </Form>
  );
}
