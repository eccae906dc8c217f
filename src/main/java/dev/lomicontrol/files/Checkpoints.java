package dev.lomicontrol.files;

/**
 * Named points inside an operation where tests may interfere (swap a path, modify a file, or
 * SIGKILL the process) to prove the rechecks and the crash story. Production uses {@link #NONE}.
 */
@FunctionalInterface
interface Checkpoints {

    /** After a path component was checked and before it is opened. */
    String WALK_CHECKED = "walk.checked";
    /** After a file was opened and its stamp taken, before its bytes are read. */
    String READ_STARTED = "read.started";
    /** After a new file was staged and fsynced, before it is published under its name. */
    String CREATE_STAGED = "create.staged";
    /** After a replacement was staged and fsynced, before the recheck and rename. */
    String REPLACE_STAGED = "replace.staged";
    /** After the trash plan is durable, before the recheck and move. */
    String TRASH_PLANNED = "trash.planned";
    /** After the trashed entry was moved, before completed.json is written. */
    String TRASH_MOVED = "trash.moved";

    Checkpoints NONE = stage -> {};

    void reached(String stage);
}
