package dev.lomicontrol.ipc;

/** Broker → helper, plaintext: the broker's certificate (base64 DER) and the pairing request to approve. */
public record Welcome(int ipcVersion, String instanceId, String certificate, String pairingRequestId) {}
