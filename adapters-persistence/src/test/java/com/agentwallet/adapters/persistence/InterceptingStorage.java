package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.Function;

/**
 * A storage that hands every call on its stores, once it has run, to an {@link Interceptor}: so a
 * test can fail a unit of work midway, or hold it at an exact point while another thread acts.
 */
final class InterceptingStorage implements Storage {
    private final Storage delegate;
    private final Interceptor interceptor;

    /** Sees each store call after it ran, inside its database transaction; may throw to fail that transaction. */
    @FunctionalInterface
    interface Interceptor {
        void after(String store, String method, Object[] args, Object result);
    }

    InterceptingStorage(Storage delegate, Interceptor interceptor) {
        this.delegate = delegate;
        this.interceptor = interceptor;
    }

    @Override
    public <T> T inTransaction(Function<Stores, T> work) {
        return delegate.inTransaction(stores -> work.apply(intercepted(stores)));
    }

    private Stores intercepted(Stores stores) {
        return (Stores) Proxy.newProxyInstance(Stores.class.getClassLoader(), new Class<?>[]{Stores.class},
                (self, storeMethod, storeArgs) -> {
                    Object store = call(stores, storeMethod, storeArgs);
                    if (!storeMethod.getReturnType().isInterface()) {
                        return store;
                    }
                    String storeName = storeMethod.getName();
                    return Proxy.newProxyInstance(Stores.class.getClassLoader(), new Class<?>[]{storeMethod.getReturnType()},
                            (proxy, method, args) -> {
                                Object result = call(store, method, args);
                                interceptor.after(storeName, method.getName(), args == null ? new Object[0] : args, result);
                                return result;
                            });
                });
    }

    private static Object call(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
