import { useRef, useState } from 'react';
import {
  PROFILE_PICTURE_MAX_BYTES,
  PROFILE_PICTURE_SIZE_MESSAGE,
  PROFILE_PICTURE_TYPE_MESSAGE,
  PROFILE_PICTURE_TYPES,
} from '@bloodbank/shared/constants';

export interface ProfilePicture {
  file: File | null;
  /** A data: URL of the chosen file, for the preview. */
  preview: string | null;
  error: string | null;
  choose: (file: File | null) => void;
  setError: (message: string | null) => void;
}

/**
 * The optional profile picture of the registration forms. The type and size are checked here to
 * save a pointless upload; the server checks the content again.
 */
export function useProfilePicture(): ProfilePicture {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A slow read of an earlier file must not replace the preview of a later one.
  const latest = useRef<File | null>(null);

  const choose = (next: File | null) => {
    latest.current = next;
    setError(null);
    setFile(null);
    setPreview(null);
    if (!next) return;
    if (!(PROFILE_PICTURE_TYPES as readonly string[]).includes(next.type)) {
      setError(PROFILE_PICTURE_TYPE_MESSAGE);
      return;
    }
    if (next.size > PROFILE_PICTURE_MAX_BYTES) {
      setError(PROFILE_PICTURE_SIZE_MESSAGE);
      return;
    }
    setFile(next);
    const reader = new FileReader();
    reader.onload = () => {
      if (latest.current === next && typeof reader.result === 'string') setPreview(reader.result);
    };
    reader.readAsDataURL(next);
  };

  return { file, preview, error, choose, setError };
}
