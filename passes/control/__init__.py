"""GE's passes for functional control flow (If, Case, While, For): graph preparation
(CondPass, ForPass) and, for known-shape graphs, the labels that lower them to tasks."""
