/**
 * Error codes of the control plane (spec section 7), in one annotated list.
 * `user` codes are the caller's mistake (4xx); `service` codes are ours or the fleet's (5xx).
 * Codes that carry a suffix (`invalid_tool_description:<name>`) are built by the helpers below.
 */
export const ErrorCode = {
  // generic (spec 7 "Other sessions routes"; shapes of generic failures are ours: docs/fidelity.md)
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  originNotAllowed: 'origin_not_allowed',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  invalidJson: 'invalid_json',
  invalidRequest: 'invalid_request',
  payloadTooLarge: 'payload_too_large',
  /** Refused by the HTTP parser before routing (431 / 408); ours, docs/architecture.md. */
  headersTooLarge: 'headers_too_large',
  requestTimeout: 'request_timeout',
  unsupportedMediaType: 'unsupported_media_type',
  workspaceIdRequired: 'workspace_id_required',
  conflict: 'conflict',
  internal: 'internal_error',
  // session mint (spec 7)
  fleetBusy: 'fleet_busy',
  protocolUnavailable: 'protocol_unavailable',
  customAvatarUnavailable: 'custom_avatar_unavailable',
  customAvatarUnsupported: 'custom_avatar_unsupported',
  quotaExhausted: 'quota_exhausted',
  rateLimited: 'rate_limited',
  concurrencyLimit: 'concurrency_limit',
  customAvatarNotAllowed: 'custom_avatar_not_allowed',
  avatarVersionPinNotAllowed: 'avatar_version_pin_not_allowed',
  profilePinNotAllowed: 'profile_pin_not_allowed',
  toolsContextNotAllowed: 'tools_context_not_allowed',
  sessionCapNotAllowed: 'session_cap_not_allowed',
  recordingNotAllowed: 'recording_not_allowed',
  avatarRefAvatarIdExclusive: 'avatar_ref_avatar_id_exclusive',
  avatarRefPersonaExclusive: 'avatar_ref_persona_exclusive',
  avatarNotPublished: 'avatar_not_published',
  versionNotPublished: 'version_not_published',
  profileMismatch: 'profile_mismatch',
  invalidContextSystemPrompt: 'invalid_context_system_prompt',
  invalidConfig: 'invalid_config',
  invalidResponseLanguage: 'invalid_response_language',
  invalidSessionCapSeconds: 'invalid_session_cap_seconds',
  invalidRecording: 'invalid_recording',
  invalidObservability: 'invalid_observability',
  zdrMemoryUnavailable: 'zdr_memory_unavailable',
  zdrToolsUnavailable: 'zdr_tools_unavailable',
  notifyNotAllowed: 'notify_not_allowed',
  invalidNotifyUrl: 'invalid_notify_url',
  // tools at mint (spec 7)
  inlineToolsRequireAgentHook: 'inline_tools_require_agent_hook',
  invalidAgentHook: 'invalid_agent_hook',
  agentClaimTooLarge: 'agent_claim_too_large',
  tooManyTools: 'too_many_tools',
  tooManyMcpServers: 'too_many_mcp_servers',
  toolNameConflict: 'tool_name_conflict',
  noToolsResolved: 'no_tools_resolved',
  invalidToolName: 'invalid_tool_name',
  invalidMaxCalls: 'invalid_max_calls',
  mcpServerNotFound: 'mcp_server_not_found',
  mcpServerUnavailable: 'mcp_server_unavailable',
  builtinServerNotEnabled: 'builtin_server_not_enabled',
  builtinServerNotFound: 'builtin_server_not_found',
  agentPayloadTooLarge: 'agent_payload_too_large',
  // config and profiles (spec 7)
  invalidConfigJson: 'invalid_config_json',
  profileIsDefault: 'profile_is_default',
  stockReadOnly: 'stock_read_only',
  // other session routes
  sessionLive: 'session_live',
  // speak (spec 7)
  missingFields: 'missing_fields',
  atCapacity: 'at_capacity',
  renderFailed: 'render_failed',
  noBoxAvailable: 'no_box_available',
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Codes with a `:<name>` suffix (spec 7 "Tools at mint"). */
export const suffixed = {
  invalidToolDescription: (name: string) => `invalid_tool_description:${name}`,
  schemaRootMustBeObject: (name: string) => `schema_root_must_be_object:${name}`,
  schemaTooLarge: (name: string) => `schema_too_large:${name}`,
  schemaTooDeep: (name: string) => `schema_too_deep:${name}`,
  schemaRefUnsupported: (name: string) => `schema_ref_unsupported:${name}`,
  unknownToolsField: (key: string) => `unknown_tools_field:${key}`,
} as const;

/** Details of `invalid_config` / `invalid_config_json` (spec 7 "Config and profiles"). */
export const configDetail = {
  unknownKey: (key: string) => `unknown_config_key:${key}`,
  notBoolean: (key: string) => `config_not_boolean:${key}`,
  notInteger: (key: string) => `config_not_integer:${key}`,
  outOfRange: (key: string) => `config_out_of_range:${key}`,
  tooLarge: 'config_too_large',
  sessionOnly: (key: string) => `config_key_session_only:${key}`,
} as const;

/** The control-plane error envelope (spec 7): `{ error, message?, retryable?, detail?, ...extra }`. */
export interface ErrorBody {
  error: string;
  message?: string;
  retryable?: boolean;
  detail?: string;
  [extra: string]: unknown;
}

/** The inference family's envelope (spec 7): `{ error: { code, message, type } }`. */
export interface InferenceErrorBody {
  error: { code: string; message: string; type: string };
}
