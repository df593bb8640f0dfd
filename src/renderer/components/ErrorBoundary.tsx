import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** Shows a readable error and a reload button instead of a blank window when rendering fails. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('workbench renderer crashed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="crash" role="alert" data-testid="error-boundary">
        <h1>Something went wrong in the window</h1>
        <pre>{this.state.error.message}</pre>
        <button type="button" className="primary" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
