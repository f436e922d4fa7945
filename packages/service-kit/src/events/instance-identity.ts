import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'

/**
 * Who this process is among its service's instances: INSTANCE_ID when the deployment names
 * it (the pod name on Kubernetes, through the downward API; `<service>-<n>` from start.sh),
 * so a restarted instance comes back as itself and reuses its per-instance consumer groups
 * instead of leaving one more group on the broker at every start. Unset, a name made now
 * (host, process, random): unique, which is what a per-instance group must be above all,
 * but new at every start.
 */
export function instanceIdentity(configured?: string): string {
  if (configured) return configured
  return `${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}`
}

/**
 * A per-instance group's id: the service's name for the group, then the instance. Every
 * instance reads every event of such a group (the live push, an in-memory read model);
 * shared groups keep their plain id, so their instances split the partitions.
 */
export function perInstanceGroupId(groupId: string, instanceId: string): string {
  return `${groupId}.${instanceId}`
}
