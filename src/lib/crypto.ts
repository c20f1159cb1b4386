const encoder = new TextEncoder();

/** Standard base64, in chunks so a large file never builds one huge argument list. */
export function base64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (let i = 0; i < view.length; i += 0x8000) {
    binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Standard base64 (padding optional) to bytes; throws on anything else, as atob does. */
export function base64Decode(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}

export function base64url(bytes: ArrayBuffer | Uint8Array): string {
  return base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function base64urlDecode(text: string): Uint8Array {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return base64Decode(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
}

export function hex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return Array.from(view, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** URL-safe random string with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Imports an HMAC-SHA256 key once, at start-up, so requests never pay for it. */
export function importHmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

export async function hmacSign(key: CryptoKey, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** Constant-time check through Web Crypto's own verify. */
export function hmacVerify(
  key: CryptoKey,
  signature: Uint8Array,
  message: string,
): Promise<boolean> {
  return crypto.subtle.verify(
    "HMAC",
    key,
    signature as Uint8Array<ArrayBuffer>,
    encoder.encode(message),
  );
}

/** AES-256-GCM key derived from APP_ENCRYPTION_KEY, for provider secrets at rest. */
export async function importEncryptionKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest("SHA-256", encoder.encode(secret));
  return crypto.subtle.importKey("raw", material, { name: "AES-GCM" }, false, [
    "encrypt",
    "decrypt",
  ]);
}

/**
 * Encrypts a secret (a provider's API key) for storage: `v1.<iv>.<ciphertext>`, base64url,
 * AES-256-GCM with a random 96-bit IV. The version prefix leaves room for key rotation.
 */
export async function encryptSecret(key: CryptoKey, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    encoder.encode(plaintext),
  );
  return `v1.${base64url(iv)}.${base64url(sealed)}`;
}

/** Opens encryptSecret's output; throws when it was sealed under another key or altered. */
export async function decryptSecret(key: CryptoKey, stored: string): Promise<string> {
  const [version, iv, sealed] = stored.split(".");
  if (version !== "v1" || !iv || !sealed) throw new Error("Unknown secret format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: base64urlDecode(iv) as Uint8Array<ArrayBuffer> },
    key,
    base64urlDecode(sealed) as Uint8Array<ArrayBuffer>,
  );
  return new TextDecoder().decode(plain);
}
