package dev.lomicontrol.transport;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.FileSystems;
import java.nio.file.attribute.UserPrincipal;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/** This process's user as the JDK's principals compare it (by uid), looked up once. */
final class OwnUser {
    static final long UID = new UnixSystem().getUid();
    static final UserPrincipal PRINCIPAL = lookUp();

    private OwnUser() {}

    /**
     * The peer of a Unix-domain {@code socket} as SO_PEERCRED through the JDK names it: our uid when it
     * runs as our user, {@link PeerCredentials#UNKNOWN} otherwise, and {@code UNKNOWN} as the pid.
     */
    static PeerCredentials peerOf(SocketChannel socket) throws IOException {
        UnixDomainPrincipal principal = socket.getOption(ExtendedSocketOptions.SO_PEERCRED);
        boolean ours = principal.user().equals(OwnUser.PRINCIPAL);
        return new PeerCredentials(ours ? OwnUser.UID : PeerCredentials.UNKNOWN, PeerCredentials.UNKNOWN);
    }

    private static UserPrincipal lookUp() {
        try {
            // a name that is all digits and names no user is taken as that uid
            return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(Long.toString(UID));
        } catch (IOException e) {
            throw new IllegalStateException("cannot look up this process's user " + UID, e);
        }
    }
}
