import type { TodoStatus } from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';

const ICON: Record<TodoStatus, string> = { pending: '○', in_progress: '◐', done: '●' };
const LABEL: Record<TodoStatus, string> = { pending: 'Pending', in_progress: 'In progress', done: 'Done' };

/** The agent's todo list for the active thread, updated live by write_todos. */
export function TodosPanel() {
  const todos = useWorkbenchStore((s) => (s.activeThreadId ? s.chat.threads[s.activeThreadId]?.todos : undefined)) ?? [];
  const done = todos.filter((t) => t.status === 'done').length;
  if (todos.length === 0) return <p className="muted" data-testid="todos-empty">No todos yet. The agent writes them with write_todos on bigger tasks.</p>;
  return (
    <div className="todos" data-testid="todos">
      <div className="todo-progress">
        <span data-testid="todo-progress">{`${done}/${todos.length} done`}</span>
        <div className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={todos.length} aria-valuenow={done}>
          <div style={{ width: `${(done / todos.length) * 100}%` }} />
        </div>
      </div>
      <ul className="todo-list">
        {todos.map((t) => (
          <li key={t.id} className={`todo todo-${t.status}`} data-testid="todo-item" data-status={t.status}>
            <span className="todo-icon" aria-label={LABEL[t.status]} title={LABEL[t.status]}>
              {ICON[t.status]}
            </span>
            <span>{t.title}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
