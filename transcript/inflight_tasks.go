package transcript

type taskUpdate struct{ id, status, subject string }

// taskDeleted marks a hole in flightCollector.tasks.
const taskDeleted = "\x00deleted"

// addTask appends a task, or counts it as dropped beyond maxCollectTasks; it returns its index
// or -1.
func (c *flightCollector) addTask(t Task) int {
	if c.live >= maxCollectTasks {
		put(&c.tasksDropped, t.ID, struct{}{})
		return -1
	}
	if i, ok := c.taskIdx[t.ID]; ok && t.ID != "" { // a second create of one id replaces it
		c.tasks[i] = t
		return i
	}
	c.tasks = append(c.tasks, t)
	c.live++
	i := len(c.tasks) - 1
	put(&c.taskIdx, t.ID, i)
	return i
}

// update applies one TaskUpdate.
func (c *flightCollector) update(u taskUpdate) {
	i, ok := c.taskIdx[u.id]
	if !ok {
		if u.status == "deleted" {
			delete(c.tasksDropped, u.id)
			return
		}
		if _, gone := c.tasksDropped[u.id]; gone {
			return
		}
		if i = c.addTask(Task{ID: u.id, Status: "pending"}); i < 0 {
			return
		}
	}
	if u.status == "deleted" {
		c.tasks[i].Status = taskDeleted
		delete(c.taskIdx, u.id)
		c.live--
		return
	}
	if u.status != "" {
		c.tasks[i].Status = u.status
	}
	if u.subject != "" {
		c.tasks[i].Subject = u.subject
	}
}
