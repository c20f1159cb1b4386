/** The app's /me statement: the user, the balance, the plan in effect with features and limits. */
export const ME_STATEMENT = `select u.*, c.balance as credits,
  (select json_build_object('plan', ep.code, 'features', coalesce(p.features, '[]'::jsonb),
     'limits', json_build_object(
       'customers', json_build_object('max', (p.limits ->> 'customers')::int,
         'used', coalesce((select uu.customers from user_usage uu where uu.user_id = u.id), 0)),
       'agent_runs_per_month', json_build_object('max', (p.limits ->> 'agent_runs_per_month')::int,
         'used', (select count(*)::int from agent_pipelines a where a.user_id = u.id
           and a.created_at >= date_trunc('month', $2::timestamptz at time zone 'UTC') at time zone 'UTC'))))
   from (select case when u.plan <> 'free' and u.plan_expires_at <= $2::timestamptz
                then 'free' else u.plan end as code) ep
   left join subscription_plans p on p.code = ep.code) as entitlements
from users u left join user_credits c on c.user_id = u.id where u.id = $1`;

/** The same statement with its values written in, for pgbench. */
export const meStatementFor = (userId: string, nowIso: string) =>
  `${ME_STATEMENT.replace("$1", `'${userId}'`).replaceAll("$2", `'${nowIso}'`).replace(/\s+/g, " ")};`;
