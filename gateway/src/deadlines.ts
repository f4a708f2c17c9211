// The timeouts of requests handed on in process (in-process.ts handOffRaw): one list per length of
// timeout, its deadlines in the order they fall due, and one timer per list, armed for the earliest.
//
// Why not a setTimeout a request: Node keeps one list per duration too, but a handed-off request's
// timer is cleared before the next request's is made, so with one route timeout that list emptied and
// was made again for every request — a new list, its place in Node's timer queue, libuv's timer
// started and stopped: about 0.7k instructions and 70 first-level cache misses a request, a tenth of
// what the in-process lane adds (bench/gateway/instructions.mjs --names --cache-sim). Here a list lives
// as long as the process, and its timer is left armed when the list empties: when it fires with nothing
// due it re-arms for the new earliest deadline, or stops.
import { performance } from 'node:perf_hooks';

/** One request's deadline. Subclasses say what happens when it falls due. */
export abstract class Deadline {
  /** performance.now() when it falls due. */
  at = 0;
  prev: Deadline | null = null;
  next: Deadline | null = null;
  /** The list it is in, or null once it fell due or was cancelled. */
  list: DeadlineList | null = null;

  /** Its time ran out (called once by its list, after it has left it). */
  abstract expire(): void;

  /** Starts its time again: it falls due its list's length of time from now. */
  refresh(): void {
    this.list?.refresh(this);
  }

  /** It will not fall due (the request finished). */
  cancel(): void {
    this.list?.remove(this);
  }
}

/** The deadlines of one length of timeout, earliest first. */
export class DeadlineList {
  private head: Deadline | null = null;
  private tail: Deadline | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly ms: number) {
    if (!(ms > 0)) throw new RangeError(`a timeout must be positive, not ${ms}`);
  }

  /** Adds `deadline`, due `ms` from now. */
  add(deadline: Deadline): void {
    const now = performance.now();
    deadline.at = now + this.ms;
    this.append(deadline);
    if (this.timer === null) this.arm(now);
  }

  refresh(deadline: Deadline): void {
    this.unlink(deadline);
    deadline.at = performance.now() + this.ms;
    this.append(deadline);
  }

  remove(deadline: Deadline): void {
    this.unlink(deadline);
  }

  // Every deadline has the same length and the clock only moves forward: appending keeps the order.
  private append(deadline: Deadline): void {
    deadline.list = this;
    deadline.prev = this.tail;
    deadline.next = null;
    if (this.tail === null) this.head = deadline;
    else this.tail.next = deadline;
    this.tail = deadline;
  }

  private unlink(deadline: Deadline): void {
    if (deadline.list !== this) return;
    const { prev, next } = deadline;
    if (prev === null) this.head = next;
    else prev.next = next;
    if (next === null) this.tail = prev;
    else next.prev = prev;
    deadline.prev = deadline.next = deadline.list = null;
  }

  private arm(now: number): void {
    // Unref'd: a request in flight holds the process open by its socket; an armed timer over an empty
    // list must not.
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(this.head!.at - now)));
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = null;
    const now = performance.now();
    while (this.head !== null && this.head.at <= now) {
      const due = this.head;
      this.unlink(due);
      due.expire();
    }
    if (this.head !== null && this.timer === null) this.arm(now);
  };
}

const lists = new Map<number, DeadlineList>();

/** The process's list for timeouts of `ms` milliseconds (route timeouts come in a few lengths). */
export function deadlinesOf(ms: number): DeadlineList {
  let list = lists.get(ms);
  if (list === undefined) {
    list = new DeadlineList(ms);
    lists.set(ms, list);
  }
  return list;
}
