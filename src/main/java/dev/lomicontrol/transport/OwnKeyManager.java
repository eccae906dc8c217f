package dev.lomicontrol.transport;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.jspecify.annotations.Nullable;

/**
 * Presents exactly one key and certificate, held in memory: a side's own {@link SessionCertificate}.
 *
 * <p>Why not Netty's {@code keyManager(PrivateKey, X509Certificate...)}: that path puts the key into a
 * password-protected PKCS#12 {@code KeyStore} and reads it back, which runs PBKDF2 (10,000 HMAC-SHA-256
 * rounds) twice per context — and a context is built per connection. In the helper, whose JIT is C1 only,
 * that was the largest CPU item of connecting, on the same two cores that answer {@code initialize}. The
 * key never needs a keystore: it is generated in this process and lives only in its memory.
 */
final class OwnKeyManager extends X509ExtendedKeyManager {

    private static final String ALIAS = "own";

    private final SessionCertificate own;

    OwnKeyManager(SessionCertificate own) {
        this.own = own;
    }

    private @Nullable String aliasFor(@Nullable String keyType) {
        return keyType != null && keyType.equalsIgnoreCase(own.privateKey().getAlgorithm()) ? ALIAS : null;
    }

    private String @Nullable [] aliasesFor(@Nullable String keyType) {
        String alias = aliasFor(keyType);
        return alias == null ? null : new String[] {alias};
    }

    private @Nullable String aliasFor(String @Nullable [] keyTypes) {
        if (keyTypes != null) {
            for (String keyType : keyTypes) {
                String alias = aliasFor(keyType);
                if (alias != null) {
                    return alias;
                }
            }
        }
        return null;
    }

    @Override
    public String @Nullable [] getClientAliases(String keyType, Principal @Nullable [] issuers) {
        return aliasesFor(keyType);
    }

    @Override
    public @Nullable String chooseClientAlias(
            String @Nullable [] keyTypes, Principal @Nullable [] issuers, @Nullable Socket socket) {
        return aliasFor(keyTypes);
    }

    @Override
    public @Nullable String chooseEngineClientAlias(
            String @Nullable [] keyTypes, Principal @Nullable [] issuers, @Nullable SSLEngine engine) {
        return aliasFor(keyTypes);
    }

    @Override
    public String @Nullable [] getServerAliases(String keyType, Principal @Nullable [] issuers) {
        return aliasesFor(keyType);
    }

    @Override
    public @Nullable String chooseServerAlias(
            @Nullable String keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
        return aliasFor(keyType);
    }

    @Override
    public @Nullable String chooseEngineServerAlias(
            @Nullable String keyType, Principal @Nullable [] issuers, @Nullable SSLEngine engine) {
        return aliasFor(keyType);
    }

    @Override
    public X509Certificate @Nullable [] getCertificateChain(@Nullable String alias) {
        return ALIAS.equals(alias) ? new X509Certificate[] {own.certificate()} : null;
    }

    @Override
    public @Nullable PrivateKey getPrivateKey(@Nullable String alias) {
        return ALIAS.equals(alias) ? own.privateKey() : null;
    }
}
