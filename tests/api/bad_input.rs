//! Every route against the classic bad inputs (design.md section 20): a 4xx naming the problem,
//! never a 5xx, and nothing changed.
