// The grants of a role or a token, editable by someone who has never seen
// the JSON: allow or deny, actions ticked by area, what they apply to, the
// workspace, conditions on entries, and the plain-language summary of the
// whole list under it. The API's messages (`permissions.{n}…`) show on the
// grant they name.
import type { ActionGroup } from '../api/people.ts';
import type { ContentType, Workspace } from '../api/types.ts';
import { Button } from '../ui/button.tsx';
import { SelectField, TextField } from '../ui/field.tsx';
import { grantOf, newGrantDraft, type GrantDraft, type Scope } from './grant-draft.ts';
import { summarizeGrants } from './grant-summary.ts';
import './grants.css';

const STATUSES = ['draft', 'published', 'scheduled', 'protected', 'archived'];
const EFFECTS: [string, string][] = [
  ['allow', 'Allow'],
  ['deny', 'Deny (wins over any allow)'],
];
const SCOPES: [Scope, string][] = [
  ['all', 'Everything'],
  ['type', 'Entries of one content type'],
  ['entry', 'One entry'],
  ['custom', 'Resources typed by hand'],
];

export interface GrantsEditorProps {
  grants: GrantDraft[];
  onChange: (grants: GrantDraft[]) => void;
  catalogue: ActionGroup[];
  types: ContentType[];
  workspaces: Workspace[];
  errors: Record<string, string>;
  readOnly?: boolean;
}

export function GrantsEditor({ grants, onChange, catalogue, types, workspaces, errors, readOnly }: GrantsEditorProps) {
  const set = (key: number, change: Partial<GrantDraft>) => onChange(grants.map((grant) => (grant.key === key ? { ...grant, ...change } : grant)));
  const typeLabel = (name: string) => types.find((type) => type.name === name)?.label || name;
  return (
    <div class="grants">
      {grants.map((grant, position) => (
        <fieldset key={grant.key} class="grant" disabled={readOnly}>
          <legend>Grant {position + 1}</legend>
          {Object.entries(errors)
            .filter(([key]) => key === `permissions.${position}` || key.startsWith(`permissions.${position}.`))
            .map(([key, message]) => (
              <p key={key} class="field__error" role="alert">
                {message}
              </p>
            ))}
          <div class="grant__row">
            <SelectField label="Effect" value={grant.effect} options={EFFECTS} onValue={(effect) => set(grant.key, { effect: effect as GrantDraft['effect'] })} />
            <SelectField label="Applies to" value={grant.scope} options={SCOPES} onValue={(scope) => set(grant.key, { scope: scope as Scope })} />
            {(grant.scope === 'type' || grant.scope === 'entry') && (
              <SelectField label="Content type" value={grant.type} options={[['', 'Choose…'], ...types.map((type): [string, string] => [type.name, type.label || type.name])]} onValue={(type) => set(grant.key, { type })} />
            )}
            {grant.scope === 'entry' && <TextField label="Entry id or URL key" value={grant.entry} onValue={(entry) => set(grant.key, { entry })} />}
            {grant.scope === 'custom' && <TextField label="Resources" hint="Separated by commas, e.g. media:*, content:posts:*" value={grant.customText} onValue={(customText) => set(grant.key, { customText })} />}
            {grant.scope !== 'custom' && (
              <SelectField label="Workspace" value={grant.workspace} options={[['', 'Every workspace'], ...workspaces.map((workspace): [string, string] => [workspace.slug, workspace.label])]} onValue={(workspace) => set(grant.key, { workspace })} />
            )}
          </div>
          <ActionPicker grant={grant} catalogue={catalogue} onActions={(actions) => set(grant.key, { actions })} />
          <details class="grant__conditions" open={grant.statuses.length > 0 || grant.localesText !== '' || grant.own}>
            <summary>Only for some entries</summary>
            <fieldset class="grant__statuses">
              <legend>Status</legend>
              {STATUSES.map((status) => (
                <label key={status} class="check">
                  <input
                    type="checkbox"
                    checked={grant.statuses.includes(status)}
                    onChange={(event) => set(grant.key, { statuses: event.currentTarget.checked ? [...grant.statuses, status] : grant.statuses.filter((s) => s !== status) })}
                  />{' '}
                  {status}
                </label>
              ))}
            </fieldset>
            <TextField label="Languages" hint="Codes separated by commas; empty for all." value={grant.localesText} onValue={(localesText) => set(grant.key, { localesText })} />
            <label class="check">
              <input type="checkbox" checked={grant.own} onChange={(event) => set(grant.key, { own: event.currentTarget.checked })} /> Only entries the user wrote
            </label>
          </details>
          {!readOnly && (
            <Button variant="quiet" onClick={() => onChange(grants.filter((candidate) => candidate.key !== grant.key))}>
              Remove grant {position + 1}
            </Button>
          )}
        </fieldset>
      ))}
      {!readOnly && <Button onClick={() => onChange([...grants, newGrantDraft()])}>Add a grant</Button>}
      <section class="grant-summary" aria-label="What this allows">
        <h3>In plain words</h3>
        <ul>
          {summarizeGrants(grants.map(grantOf), typeLabel).map((sentence, index) => (
            <li key={index}>{sentence}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function ActionPicker({ grant, catalogue, onActions }: { grant: GrantDraft; catalogue: ActionGroup[]; onActions: (actions: string[]) => void }) {
  const everything = grant.actions.includes('*');
  const toggle = (action: string, isOn: boolean) => onActions(isOn ? [...grant.actions, action] : grant.actions.filter((candidate) => candidate !== action));
  return (
    <fieldset class="grant__actions">
      <legend>Actions</legend>
      <label class="check">
        <input type="checkbox" checked={everything} onChange={(event) => onActions(event.currentTarget.checked ? ['*'] : [])} /> Everything
      </label>
      {!everything && (
        <div class="grant__areas">
          {catalogue.map((group) => {
            const all = `${group.area}.*`;
            const hasAll = grant.actions.includes(all);
            return (
              <fieldset key={group.area} class="grant__area">
                <legend>{group.area}</legend>
                <label class="check">
                  <input type="checkbox" checked={hasAll} onChange={(event) => onActions([...grant.actions.filter((action) => !action.startsWith(`${group.area}.`)), ...(event.currentTarget.checked ? [all] : [])])} /> all
                </label>
                {!hasAll &&
                  group.actions.map((action) => (
                    <label key={action} class="check">
                      <input type="checkbox" checked={grant.actions.includes(action)} onChange={(event) => toggle(action, event.currentTarget.checked)} /> {action.split('.')[1]}
                    </label>
                  ))}
              </fieldset>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}
