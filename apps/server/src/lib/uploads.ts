import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import {
  PROFILE_PICTURE_MAX_BYTES,
  PROFILE_PICTURE_SIZE_MESSAGE,
  PROFILE_PICTURE_TYPE_MESSAGE,
  PROFILE_PICTURE_TYPES,
} from '@bloodbank/shared/constants';
import { invalidFields } from '../errors';

export interface StoredImage {
  fileName: string;
  mimeType: string;
}

/**
 * Profile pictures live under DATA_DIR/uploads (a shared volume when several instances run), named
 * by a random id so that nothing the client sent reaches the file system.
 */
export function avatarDirectory(dataDir: string): string {
  return path.join(dataDir, 'uploads', 'avatars');
}

/** Checks the picture by its content (magic bytes), never by its name or declared type. */
export async function validateProfilePicture(content: Buffer): Promise<{ ext: string; mime: string }> {
  if (content.length > PROFILE_PICTURE_MAX_BYTES)
    throw invalidFields({ profile_pic: PROFILE_PICTURE_SIZE_MESSAGE });
  const detected = await fileTypeFromBuffer(content);
  if (!detected || !(PROFILE_PICTURE_TYPES as readonly string[]).includes(detected.mime)) {
    throw invalidFields({ profile_pic: PROFILE_PICTURE_TYPE_MESSAGE });
  }
  return { ext: detected.ext, mime: detected.mime };
}

export async function storeProfilePicture(dataDir: string, content: Buffer, ext: string): Promise<string> {
  const directory = avatarDirectory(dataDir);
  await fs.mkdir(directory, { recursive: true });
  const fileName = `${crypto.randomUUID()}.${ext}`;
  await fs.writeFile(path.join(directory, fileName), content, { mode: 0o600 });
  return fileName;
}

export function mimeTypeOf(fileName: string): string {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  return ext === 'png' ? 'image/png' : ext === 'webp' ? 'image/webp' : 'image/jpeg';
}
