-- Issue 39: a failed operation says what was wrong and what to do next, not only its code. The
-- broker records the refusal's one-sentence message with its code; NULL on rows settled before V12
-- (their wire form gives the code's generic next step) and on rows without an error code.
ALTER TABLE operation ADD COLUMN error_message TEXT;
