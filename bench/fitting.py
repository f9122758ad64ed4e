"""Logistic regression for the fitted evaluations (bench/fit_*_eval.py)."""

from __future__ import annotations

import numpy as np


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Weights without intercept (the fit stays antisymmetric: what is good for one side
    is as bad for the other), by Newton's method on standardised features."""
    scale = x.std(axis=0) + 1e-9
    z = x / scale
    w = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        gradient = z.T @ (p - y) / len(y) + l2 * w
        hessian = (z.T * (p * (1 - p))) @ z / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w / scale


def accuracy_and_log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return (float(np.mean((p > 0.5) == y)),
            float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))))
