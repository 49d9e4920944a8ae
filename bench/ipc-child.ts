import type { ChildProcess } from 'node:child_process';

/** A bench's child process asked over IPC: each request answered by its id; id 0 says the child is ready. */
export class IpcChild {
  private seq = 0;
  private readonly waiting = new Map<number, (v: unknown) => void>();
  readonly ready: Promise<void>;
  constructor(readonly proc: ChildProcess) {
    let ready!: () => void;
    this.ready = new Promise((r) => (ready = r));
    proc.on('message', (m: { id: number; value: unknown }) => {
      if (m.id === 0) return ready();
      this.waiting.get(m.id)?.(m.value);
      this.waiting.delete(m.id);
    });
  }
  ask<T>(msg: Record<string, unknown>): Promise<T> {
    const id = ++this.seq;
    return new Promise<T>((resolve) => {
      this.waiting.set(id, resolve as (v: unknown) => void);
      this.proc.send({ ...msg, id });
    });
  }
}
