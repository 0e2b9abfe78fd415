import { useRouteRecord } from '@/core/use-route-record';
import { AdminDenied } from '@/features/admin/AdminDenied';
import { confirmAction } from '@/features/admin/confirm';
import { failureText, useAdminAccess } from '@/features/admin/use-admin';
import { assignAgent, listAgents, removeAgent } from '@/features/cs/agents';
import { ActionButton, Field, FormFailure } from '@/ui/form/Field';
import { StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { CsAgent } from '../../../types/api';
import '@/features/admin/admin.css';
import '@/features/cs/cs.css';

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; agents: CsAgent[] };

/**
 * The support team's agents (admins only): only the users listed here may go online for the team, accept,
 * transfer and end its conversations or read them. An admin adds an account by its e-mail and removes one
 * with a tap; a removed agent leaves the team at once, on every device.
 */
export default function CsAgents() {
  useRouteRecord();
  const access = useAdminAccess();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [email, setEmail] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes when the admin taps Try again
  useEffect(() => {
    if (access !== 'admin') return;
    setLoad({ state: 'loading' });
    listAgents().then(
      (agents) => setLoad({ state: 'ready', agents }),
      (reason: unknown) => setLoad({ state: 'failed', message: failureText(reason, 'Could not load the agents') }),
    );
  }, [access, attempt]);

  if (access === 'guest') return null;
  if (access === 'shopper') return <AdminDenied />;

  const change = async (work: () => Promise<CsAgent[]>, done: string) => {
    setBusy(true);
    setFailure('');
    try {
      setLoad({ state: 'ready', agents: await work() });
      void Taro.showToast({ title: done, icon: 'success', duration: 1500 });
      return true;
    } catch (reason) {
      setFailure(failureText(reason, 'The change was not saved'));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async () => {
    if (email.trim() === '') {
      setFailure('email: is required');
      return;
    }
    if (await change(() => assignAgent(email.trim()), 'Agent added')) setEmail('');
  };

  const remove = async (agent: CsAgent) => {
    if (!(await confirmAction(`Remove ${agent.nickname || agent.email} from the support team？`))) return;
    await change(() => removeAgent(agent.user_id), 'Agent removed');
  };

  return (
    <View className="admin-page">
      <Text className="admin-status">Support team agents</Text>
      {load.state === 'loading' && <Text className="admin-state">Loading agents…</Text>}
      {load.state === 'failed' && (
        <StateView state="error" error={load.message} onRetry={() => setAttempt((times) => times + 1)} />
      )}
      {load.state === 'ready' && load.agents.length === 0 && <Text className="admin-state">No agents yet</Text>}
      {load.state === 'ready' &&
        load.agents.map((agent) => (
          <View key={agent.user_id} className="admin-list__item">
            <View className="admin-list__text">
              <Text className="admin-list__title">{agent.nickname || agent.email}</Text>
              <Text className="admin-list__meta">{agent.email}</Text>
              <Text className={`admin-badge ${agent.online ? 'admin-badge--on' : ''}`}>
                {agent.online ? 'Online' : 'Offline'}
              </Text>
            </View>
            <Text className="cs-action cs-action--danger" onClick={() => void remove(agent)}>
              Remove
            </Text>
          </View>
        ))}
      <View className="admin-section">
        <Field
          label="Add an agent by e-mail"
          name="agent-email"
          value={email}
          maxlength={254}
          placeholder="name@example.com"
          onChange={setEmail}
          onConfirm={() => void add()}
        />
        <FormFailure message={failure} />
        <ActionButton label="Add agent" name="add-agent" busy={busy} onClick={() => void add()} />
      </View>
    </View>
  );
}
