import { test, expect } from './fixtures.ts';

test('todos update live as write_todos runs', async ({ fake, chat, todos }) => {
  await fake.script([
    {
      toolCalls: [
        {
          name: 'write_todos',
          args: {
            todos: [
              { id: '1', title: 'Read the code', status: 'in_progress' },
              { id: '2', title: 'Write the fix', status: 'pending' },
              { id: '3', title: 'Run the tests', status: 'pending' },
            ],
          },
        },
      ],
    },
    {
      toolCalls: [
        {
          name: 'write_todos',
          args: {
            todos: [
              { id: '1', title: 'Read the code', status: 'done' },
              { id: '2', title: 'Write the fix', status: 'done' },
              { id: '3', title: 'Run the tests', status: 'in_progress' },
            ],
          },
        },
      ],
      delayMs: 300,
    },
    { text: 'Almost there.' },
  ]);
  await todos.open();
  await chat.sendNew('Plan the work');
  await expect(todos.items).toHaveCount(3);
  await expect(todos.progress).toHaveText('2/3 done');
  await expect(todos.items.nth(2)).toHaveAttribute('data-status', 'in_progress');
  await expect(chat.assistant.last()).toContainText('Almost there.');
});
