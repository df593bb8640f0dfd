import { useWorkbenchStore } from '../../stores/store.ts';

/** Shown when the thread's last run died with its process: offers to resume it (docs/events.md#run-rescue). */
export function InterruptedBanner({ threadId }: { threadId: string }) {
  const resume = useWorkbenchStore((s) => s.resume);
  return (
    <div className="interrupted-banner" role="status" data-testid="interrupted-banner">
      <span>The last run was interrupted: the process running it stopped.</span>
      <button
        type="button"
        className="primary"
        onClick={() => void resume(threadId)}
        data-testid="resume-button"
      >
        Resume
      </button>
    </div>
  );
}
