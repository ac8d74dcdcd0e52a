import { useState } from 'react';
import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';

interface SearchInputProps {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  /** Why the text searched for is not one this list can find (shown on the field). */
  error?: string | null;
  /** A number to type (a bag's label): a phone offers its number pad. */
  inputMode?: 'numeric';
}

/** Searches as the admin types (after a short pause), so a list is not refetched on every key. */
export function SearchInput({ label, placeholder, value, onChange, error, inputMode }: SearchInputProps) {
  const [text, setText] = useState(value);
  // The value this input last sent or followed. A different `value` changed elsewhere (the back
  // button, a "Clear search" link): the text follows it. Our own value coming back changes nothing.
  const [synced, setSynced] = useState(value);
  if (value !== synced) {
    setSynced(value);
    setText(value);
  }
  const send = (next: string) => {
    setSynced(next);
    onChange(next);
  };
  const commit = useDebouncedCallback(send, 300);
  // Enter and the clear button send at once; the typing's pending send must not follow them, or
  // it would send the search again later and take the list back to page 1 after the admin paged on.
  const sendNow = (next: string) => {
    commit.cancel();
    send(next);
  };

  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      type="search"
      inputMode={inputMode}
      error={error}
      value={text}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        text ? (
          <CloseButton
            aria-label="Clear the search box"
            size="sm"
            onClick={() => {
              setText('');
              sendNow('');
            }}
          />
        ) : null
      }
      onChange={(event) => {
        setText(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') sendNow(text);
      }}
      style={{ flex: '1 1 260px' }}
    />
  );
}
