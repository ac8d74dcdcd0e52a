import { Avatar, FileInput, Group } from '@mantine/core';
import { IconPhoto, IconUser } from '@tabler/icons-react';
import { PROFILE_PICTURE_TYPES } from '@bloodbank/shared/constants';
import type { ProfilePicture } from '../hooks/use-profile-picture';

export function ProfilePictureInput({ picture, disabled }: { picture: ProfilePicture; disabled?: boolean }) {
  return (
    <Group align="flex-start" wrap="nowrap" gap="md">
      {picture.preview ? (
        <Avatar src={picture.preview} size={64} radius="xl" alt="Preview of your profile picture" />
      ) : (
        <Avatar size={64} radius="xl" color="gray" aria-hidden>
          <IconUser size={30} />
        </Avatar>
      )}
      <FileInput
        style={{ flex: 1, minWidth: 0 }}
        label="Profile Picture"
        description="Optional. A JPEG, PNG or WebP image of at most 2 MB."
        placeholder="Choose a picture"
        accept={PROFILE_PICTURE_TYPES.join(',')}
        clearable
        value={picture.file}
        onChange={picture.choose}
        error={picture.error}
        disabled={disabled}
        leftSection={<IconPhoto size={18} aria-hidden />}
        name="profile_pic"
      />
    </Group>
  );
}
