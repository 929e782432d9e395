-- The session check every authenticated request makes (decision 005: the access token's session
-- family still live, the user not blocked, the role read fresh) as a function, called in the same
-- single message as before (db/database.ts readAsAuth: BEGIN, the role, the call, COMMIT). Sent as
-- an inline SELECT, the three-table join was parsed and planned again on every request; PL/pgSQL
-- keeps the plan per connection. pgbench on the bench:lists database (issue 18 §4): 0.150–0.175 ms
-- a check before, 0.082–0.088 ms through the function.
--
-- SECURITY INVOKER: it runs as bilan_auth, as the inline query did, under the same policies.
CREATE FUNCTION session_check(p_family uuid, p_user uuid, p_instance uuid)
  RETURNS TABLE (role text, is_superadmin boolean)
  LANGUAGE plpgsql STABLE SET search_path FROM CURRENT
  AS $$
BEGIN
  RETURN QUERY
    SELECT m.role, u.is_superadmin
      FROM auth_session s
      JOIN app_user u ON u.id = s.user_id AND u.blocked_at IS NULL
      JOIN instance_member m ON m.user_id = s.user_id AND m.instance_id = p_instance
     WHERE s.family_id = p_family AND s.user_id = p_user AND s.instance_id = p_instance
       AND s.rotated_at IS NULL AND s.revoked_at IS NULL AND s.expires_at > now()
     LIMIT 1;
END $$;

REVOKE ALL ON FUNCTION session_check(uuid, uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION session_check(uuid, uuid, uuid) TO bilan_auth;
