/** Who writes: the namespace and the actor recorded in the history. */
export interface Actor {
  namespace: string;
  actor: string;
}
