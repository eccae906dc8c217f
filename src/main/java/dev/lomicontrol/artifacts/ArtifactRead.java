package dev.lomicontrol.artifacts;

/**
 * An artifact as read: its metadata, its verified bytes (the caller decides whether they are small
 * enough to inline), and whether the source file changed or disappeared since the import.
 */
public record ArtifactRead(Artifact artifact, byte[] bytes, boolean sourceChanged) {

    public ArtifactRead {
        bytes = bytes.clone();
    }

    /** A copy of the verified bytes. */
    @Override
    public byte[] bytes() {
        return bytes.clone();
    }
}
