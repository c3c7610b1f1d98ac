/**
 * The forwarder's internals: the loop, the two broker publishers and the failure texts. May change
 * without notice; use {@link dev.hourglass.forward.Forwarder}.
 */
package dev.hourglass.forward.internal;
